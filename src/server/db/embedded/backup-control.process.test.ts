import { spawnSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/process.ts';
import { backupSocketPath, NoBackupServerError, requestBackup, serveBackups } from './backup-control.ts';

const logger = pino({ level: 'silent' });
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

const socketIn = (prefix: string) => backupSocketPath(path.join(tempDir(prefix), 'data'));

function rawRequest(socketPath: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath, () => socket.write(line));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the backup control socket', () => {
  it('hands the snapshot to a client over a socket only its owner can open, and removes it on close', async () => {
    const socketPath = socketIn('control');
    const bytes = new Uint8Array(300_000).map((_, i) => i % 253);
    const stop = await serveBackups(socketPath, async () => bytes, logger);
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    expect(Buffer.from(await requestBackup(socketPath)).equals(Buffer.from(bytes))).toBe(true);
    await stop();
    expect(() => statSync(socketPath)).toThrow();
    await expect(requestBackup(socketPath)).rejects.toBeInstanceOf(NoBackupServerError);
  });

  it('serves one backup at a time', async () => {
    const socketPath = socketIn('control-serial');
    let running = 0;
    let most = 0;
    const stop = await serveBackups(
      socketPath,
      async () => {
        most = Math.max(most, ++running);
        // A real wait: the requests come over a real socket; a backup that takes a while lets them overlap.
        await new Promise((r) => setTimeout(r, 30));
        running--;
        return new Uint8Array([1, 2, 3]);
      },
      logger,
    );
    stops.push(stop);
    const results = await Promise.all([1, 2, 3].map(() => requestBackup(socketPath)));
    expect(results.map((r) => [...r])).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
    expect(most).toBe(1);
  });

  it('reports a failed snapshot to the client and answers an unknown request with an error', async () => {
    const socketPath = socketIn('control-fail');
    stops.push(await serveBackups(socketPath, () => Promise.reject(new Error('disk full')), logger));
    await expect(requestBackup(socketPath)).rejects.toThrow('the server could not make the backup: disk full');
    expect(await rawRequest(socketPath, 'delete everything\n')).toBe('{"ok":false,"error":"unknown request"}\n');
  });

  it('replaces a socket left by a killed server, and refuses a path that is not a socket', async () => {
    const socketPath = socketIn('control-stale');
    // A killed process leaves its socket file behind; nothing answers on it.
    spawnSync(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    expect(statSync(socketPath).isSocket()).toBe(true);
    await expect(requestBackup(socketPath)).rejects.toBeInstanceOf(NoBackupServerError);
    stops.push(await serveBackups(socketPath, async () => new Uint8Array([7]), logger));
    expect([...(await requestBackup(socketPath))]).toEqual([7]);

    const notASocket = socketIn('control-file');
    writeFileSync(notASocket, 'mine');
    await expect(serveBackups(notASocket, async () => new Uint8Array(), logger)).rejects.toThrow('is not a socket');
  });
});
