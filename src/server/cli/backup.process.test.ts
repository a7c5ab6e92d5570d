import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { backupSocketPath } from '../db/embedded/backup-control.ts';
import { tarEntries } from '../db/embedded/backup-tar.ts';
import { privateTarModes } from '../db/embedded/data-dir-modes.ts';
import { withoutKeyFiles } from '../db/embedded/pglite-snapshot.ts';
import { createPglite } from '../db/client.ts';
import { KEY_FILE, readKeyFiles } from '../lib/credentials-key-file.ts';
import { migratedDataDir, runNode, signInOverHttp, startServer, stopServer, tempDir, type ServerProcess } from '../test/process.ts';
import { allTableRows } from '../test/table-rows.ts';
import { withPgliteDir } from '../test/database.ts';
import { seededDataDir } from '../test/seeded-data-dir.ts';
import { TEMPLATE_FILE } from '../test/run-files.ts';
import { tarHeader, withTarEntry } from '../test/tar-entries.ts';

// `npm run backup` / `npm run restore` as the operator runs them, against real data directories.
const NO_POSTGRES = { DATABASE_URL: '' };
const running: ServerProcess[] = [];
afterEach(async () => {
  // SIGTERM: a clean stop also removes the server's backup socket.
  await Promise.all(running.splice(0).map((p) => stopServer(p, 'SIGTERM')));
});

async function run(script: 'backup' | 'restore', env: Record<string, string>, args: string[]) {
  const proc = runNode(`src/server/cli/${script}.ts`, { ...NO_POSTGRES, ...env }, args);
  const code = await proc.exited;
  return { code, output: proc.output() };
}

/** Path → content hash of every file under dir: equal digests mean nothing was touched. */
function treeDigest(dir: string): Record<string, string> {
  const digest: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    digest[path.relative(dir, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return digest;
}

const siblings = (dataDir: string) => readdirSync(path.dirname(dataDir)).filter((n) => n.startsWith(`${path.basename(dataDir)}.`));

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Public lead submissions, one after another, numbered from 0, until stopped. */
function startLeadWriter(url: string) {
  let stopped = false;
  let sent = 0;
  const acknowledged: number[] = [];
  const done = (async () => {
    for (let i = 0; !stopped; i++) {
      sent = i + 1;
      const res = await fetch(`${url}/api/public/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          full_name: `Writer ${i}`,
          email: `during-backup-${i}@example.com`,
          phone: '555-0100',
          property_types: ['commercial'],
          submission_id: crypto.randomUUID(),
          fill_ms: 5000,
        }),
      });
      if (res.status !== 201) throw new Error(`lead ${i}: HTTP ${res.status} ${await res.text()}`);
      acknowledged.push(i);
    }
  })();
  return {
    acknowledged: () => acknowledged.length,
    sent: () => sent,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

describe('npm run backup and npm run restore', () => {
  it('a backup taken while the server serves writes restores every row of every table as it was at one instant', async () => {
    const dataDir = await seededDataDir();
    const backupFile = path.join(tempDir('backup-out'), 'live.tar.gz');
    const server = await startServer({
      ...NO_POSTGRES,
      DATA_DIR: dataDir,
      LEAD_RATE_LIMIT: '0',
      LEAD_MIN_FILL_SECONDS: '0',
      REMINDER_MINUTES_BEFORE: '1',
    });
    running.push(server);
    expect(statSync(backupSocketPath(dataDir)).mode & 0o777).toBe(0o600);

    const writer = startLeadWriter(server.url);
    await waitUntil(() => writer.acknowledged() >= 5, 'writes before the backup');
    const acknowledgedBefore = writer.acknowledged();
    const backup = await run('backup', { DATA_DIR: dataDir }, ['--out', backupFile]);
    const sentBy = writer.sent();
    expect(backup.output).toContain('taken by the running server');
    expect(backup.code).toBe(0);
    await waitUntil(() => writer.acknowledged() >= sentBy + 3, 'writes after the backup');
    await writer.stop();
    expect(await stopServer(server)).toBe(0);
    expect(existsSync(backupSocketPath(dataDir))).toBe(false);

    const restoredDir = tempDir('backup-restored');
    const restore = await run('restore', { DATA_DIR: restoredDir }, [backupFile]);
    expect(restore.output).toContain(`into DATA_DIR ${restoredDir}`);
    expect(restore.code).toBe(0);

    // Mail is off in this test: the outbox marks queued messages as not sent as it goes, which is
    // a change after the instant. What was queued is compared, not what became of it.
    const settleOutbox = (client: ReturnType<typeof createPglite>) =>
      client.query(`update emails set status = 'queued', last_error = null`);
    const restored = await withPgliteDir(restoredDir, async (client) => {
      await settleOutbox(client);
      return allTableRows(client);
    });
    // The snapshot fell between two writes: writes 0..k-1 and none after, all acknowledged
    // ones from before the backup started, and none sent after it ended.
    const writes = restored
      .get('public.leads')!
      .map((row) => JSON.parse(row) as { email: string })
      .flatMap((l) => {
        const match = /^during-backup-(\d+)@/.exec(l.email);
        return match ? [Number(match[1])] : [];
      });
    const k = writes.length;
    expect(writes.sort((a, b) => a - b)).toEqual([...Array(k).keys()]);
    expect(k).toBeGreaterThanOrEqual(acknowledgedBefore);
    expect(k).toBeLessThanOrEqual(sentBy);

    // The source as it was at that instant: the final source without writes k and later.
    const source = await withPgliteDir(dataDir, async (client) => {
      await client.query(`delete from notifications where substring(message from '\\(during-backup-(\\d+)@example\\.com\\)$')::int >= $1`, [
        k,
      ]);
      await client.query(`delete from emails where substring(data->>'email' from '^during-backup-(\\d+)@')::int >= $1`, [k]);
      await settleOutbox(client);
      // The backup itself is recorded in the audit log once taken: after the instant.
      await client.query(`select set_config('crm.audit_maintenance', 'on', false)`);
      const backups = await client.query(`delete from audit_log where action = 'backup'`);
      expect(backups.affectedRows).toBe(1);
      const { affectedRows } = await client.query(`delete from leads where substring(email from '^during-backup-(\\d+)@')::int >= $1`, [k]);
      expect(affectedRows).toBeGreaterThanOrEqual(3); // writes after the snapshot existed
      return allTableRows(client);
    });
    expect([...restored.keys()]).toEqual([...source.keys()]);
    for (const [table, rows] of source) {
      expect(rows.length, `${table} has rows`).toBeGreaterThan(0);
      expect(restored.get(table), table).toEqual(rows);
    }
  }, 240_000);

  it('backs up with no server running, never overwrites a file, and the restored copy serves', async () => {
    const dataDir = await seededDataDir();
    const backupFile = path.join(tempDir('backup-out'), 'nested', 'offline.tar.gz');
    const backup = await run('backup', { DATA_DIR: dataDir }, ['--out', backupFile]);
    expect(backup.output).toMatch(
      /^Backup written: .*offline\.tar\.gz \([\d.]+ MB; no server was running\)\.\nChecked: it opens, \d+ tables, \d+ rows \(leads \d+, /,
    );
    expect(backup.code).toBe(0);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(backupFile))).toEqual(['offline.tar.gz']); // no partial file left
    expect(existsSync(path.join(dataDir, 'crm.lock'))).toBe(false);
    // Its members are relative to the data directory: GNU tar (which checks every header's
    // checksum) lists them so, and `tar -x` as root cannot be led to write from the root.
    const listed = execFileSync('tar', ['-tzf', backupFile], { encoding: 'utf8' }).trim().split('\n');
    expect(listed).toContain('PG_VERSION');
    expect(listed.filter((name) => name.startsWith('/') || name.split('/').includes('..'))).toEqual([]);

    const before = readFileSync(backupFile);
    const again = await run('backup', { DATA_DIR: dataDir }, ['--out', backupFile]);
    expect(again.code).toBe(1);
    expect(again.output).toContain('already exists');
    expect(readFileSync(backupFile).equals(before)).toBe(true);

    // --out-dir, as the nightly timer runs it: a new timestamped file in a directory it creates.
    const nightly = path.join(tempDir('backup-dir'), 'backups');
    const intoDir = await run('backup', { DATA_DIR: dataDir }, ['--out-dir', nightly]);
    expect(intoDir.code).toBe(0);
    expect(readdirSync(nightly)).toEqual([expect.stringMatching(/^backup-\d{8}T\d{6}Z\.tar\.gz$/)]);

    // Restoring over existing data moves that data aside. That data is a copy of the same seed,
    // so its key file is replaced: another key lives there, as in another data directory.
    const restoredDir = await seededDataDir();
    rmSync(path.join(restoredDir, KEY_FILE));
    expect('current' in readKeyFiles(restoredDir)).toBe(true);
    expect(readFileSync(path.join(restoredDir, KEY_FILE)).equals(readFileSync(path.join(dataDir, KEY_FILE)))).toBe(false);
    const restore = await run('restore', { DATA_DIR: restoredDir }, [backupFile]);
    expect(restore.code).toBe(0);
    expect(siblings(restoredDir)).toEqual([expect.stringMatching(/^[^.]+\.before-restore-\d{8}T\d{6}Z$/)]);
    expect(restore.output).toContain(`The previous data was moved to ${restoredDir}.before-restore-`);
    const [source, restored] = [await withPgliteDir(dataDir, allTableRows), await withPgliteDir(restoredDir, allTableRows)];
    expect(restored).toEqual(source);

    // The backup holds the calendar links only sealed, and not the key (kept apart, as the
    // operator keeps it): restored where another key lives, the server refuses to start until
    // the data's own key is put back.
    copyFileSync(path.join(dataDir, 'credentials.key'), path.join(restoredDir, 'credentials.key'));
    const server = await startServer({ ...NO_POSTGRES, DATA_DIR: restoredDir });
    running.push(server);
    await signInOverHttp(server.url, { email: 'demo@example.com', password: 'demo-password' });
  }, 240_000);

  it('restores a backup in the form every backup made before 2026-12 has: absolute member names', async () => {
    const before = privateTarModes(withoutKeyFiles(new Uint8Array(readFileSync(TEMPLATE_FILE))));
    const names = [...tarEntries(before)].map((entry) => entry.name);
    expect(names).toContain('/PG_VERSION');
    expect(names.filter((name) => !name.startsWith('/'))).toEqual([]);
    const backupFile = path.join(tempDir('backup-out'), 'before-relative-names.tar.gz');
    writeFileSync(backupFile, gzipSync(before));
    const dataDir = tempDir('backup-old-form');
    const restore = await run('restore', { DATA_DIR: dataDir }, [backupFile]);
    expect(restore.code, restore.output).toBe(0);
    const template = createPglite({ loadDataDir: new Blob([readFileSync(TEMPLATE_FILE)]) });
    const source = await allTableRows(template);
    await template.close();
    expect(await withPgliteDir(dataDir, allTableRows)).toEqual(source);
  }, 120_000);

  it('restore refuses while a server runs on DATA_DIR, and changes nothing', async () => {
    const dataDir = migratedDataDir('backup-busy');
    const server = await startServer({ ...NO_POSTGRES, DATA_DIR: dataDir });
    running.push(server);
    const backupFile = path.join(tempDir('backup-out'), 'template.tar.gz');
    writeFileSync(backupFile, gzipSync(readFileSync(TEMPLATE_FILE)));

    const restore = await run('restore', { DATA_DIR: dataDir }, [backupFile]);
    expect(restore.code).toBe(1);
    const lines = restore.output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^restore: DATA_DIR .* is in use by another process \\(server, pid ${server.child.pid} .*\\): stop the server first, then run restore again\\. Nothing was changed\\.$`,
      ),
    );
    expect(siblings(dataDir).filter((n) => !n.endsWith('.backup.sock'))).toEqual([]);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  }, 120_000);

  it('restore rejects a damaged or foreign file before touching DATA_DIR', async () => {
    const dataDir = tempDir('backup-keep');
    writeFileSync(path.join(dataDir, 'PG_VERSION'), '17\n');
    writeFileSync(path.join(dataDir, 'precious'), 'the current data');
    const digest = treeDigest(dataDir);
    const files = tempDir('backup-bad');
    const real = gzipSync(readFileSync(TEMPLATE_FILE));
    const foreign = await (async () => {
      const other = createPglite();
      await other.exec('create table notes (id int primary key)');
      const dump = new Uint8Array(await (await other.dumpDataDir('gzip')).arrayBuffer());
      await other.close();
      return dump;
    })();
    const cases: [string, Uint8Array, RegExp][] = [
      ['random.tar.gz', new Uint8Array(4096).map((_, i) => (i * 7919) % 251), /not a gzip file/],
      ['cut-short.tar.gz', real.subarray(0, Math.floor(real.length / 2)), /damaged or cut short/],
      ['not-a-database.tar.gz', gzipSync(Buffer.alloc(2048)), /no PG_VERSION/],
      ['another-database.tar.gz', foreign, /not this app's/],
      // A real backup's data with one hostile entry more: refused before anything is unpacked.
      ...(
        [
          ['symlink.tar.gz', tarHeader('base/evil', '2', { linkTo: '/etc/passwd' }), /a link or a device\): "base\/evil"/],
          ['device.tar.gz', tarHeader('dev/sda', '4'), /a link or a device/],
          ['climbs-out.tar.gz', tarHeader('../../cron.d/job', '0'), /outside the data directory: "..\/..\/cron.d\/job"/],
        ] as const
      ).map(([name, header, reason]): [string, Uint8Array, RegExp] => [name, gzipSync(withTarEntry(gunzipSync(real), header)), reason]),
    ];
    for (const [name, bytes, reason] of cases) {
      const file = path.join(files, name);
      writeFileSync(file, bytes);
      const restore = await run('restore', { DATA_DIR: dataDir }, [file]);
      expect(restore.code, name).toBe(1);
      expect(restore.output, name).toMatch(reason);
      expect(restore.output, name).toMatch(/Nothing was changed\.\n$/);
      expect(treeDigest(dataDir), name).toEqual(digest);
      expect(siblings(dataDir), name).toEqual([]);
    }
  }, 180_000);

  it('with DATABASE_URL, both commands explain pg_dump and pg_restore without the password, and exit 3', async () => {
    const env = { DATABASE_URL: 'postgres://crm:s3cret@db.example:5432/crm', DATA_DIR: tempDir('backup-pg') };
    const backup = await run('backup', env, []);
    expect(backup.code).toBe(3);
    expect(backup.output).toContain(
      `pg_dump --format=custom --file="crm-$(date -u +%Y%m%dT%H%M%SZ).dump" 'postgres://crm@db.example:5432/crm'`,
    );
    const restore = await run('restore', env, ['crm.dump']);
    expect(restore.code).toBe(3);
    expect(restore.output).toContain(`--dbname='postgres://crm@db.example:5432/crm'`);
    expect(backup.output + restore.output).not.toContain('s3cret');
  });
});
