import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { calendarSecretContext } from '../db/sealed-secrets.ts';
import { KEY_FILE, PREVIOUS_KEY_FILE } from '../lib/credentials-key-file.ts';
import { parseCredentialsKey, type CredentialsKey } from '../lib/credentials-key.ts';
import { createVault, loadCredentialsVault, type CredentialsVault } from '../lib/credentials.ts';
import { withPgliteDir } from '../test/database.ts';
import { migratedDataDir, runNode, startServer, stopServer, tempDir, type ServerProcess } from '../test/process.ts';

// The credentials key as an operator meets it: `npm run admin -- rotate-credentials-key`, the
// server's start-up check, and backups and restores, on real data directories.
const NO_POSTGRES = { DATABASE_URL: '', CREDENTIALS_KEY: '', CREDENTIALS_KEY_PREVIOUS: '' };
const SECRET = 'https://calendar.example.com/private-abc123/basic.ics';
const running: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => stopServer(p, 'SIGTERM')));
});

async function run(script: 'admin' | 'backup' | 'restore' | 'main', dataDir: string, args: string[] = []) {
  const proc = runNode(
    script === 'main' ? 'src/server/main.ts' : `src/server/cli/${script}.ts`,
    { ...NO_POSTGRES, DATA_DIR: dataDir, PORT: '0' },
    args,
  );
  const code = await proc.exited;
  return { code, output: proc.output().trim() };
}

const settings = (dataDir: string) => ({ credentialsKey: undefined, credentialsKeyPrevious: undefined, dataDir, databaseUrl: undefined });
const keyIn = (dataDir: string, name = KEY_FILE) => parseCredentialsKey(readFileSync(path.join(dataDir, name), 'utf8')) as CredentialsKey;

/** A data directory whose team member connected one calendar, sealed with DATA_DIR's key file (made here): the connection's id. */
async function withConnectedCalendar(dataDir: string): Promise<string> {
  const vault = loadCredentialsVault(settings(dataDir));
  if (!vault.available) throw new Error(vault.reason);
  const id = crypto.randomUUID();
  await withPgliteDir(dataDir, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `insert into users (email, display_name, password_hash) values ('jo@example.com', 'Jo', 'x') returning id`,
    );
    await client.query(
      `insert into calendar_connections (id, user_id, kind, label, secret) values ($1, $2, 'ics', 'calendar.example.com', $3)`,
      [id, rows[0]!.id, vault.seal(SECRET, calendarSecretContext(id))],
    );
  });
  return id;
}

const secretOf = (dataDir: string, id: string) =>
  withPgliteDir(
    dataDir,
    async (client) =>
      (await client.query<{ secret: string }>('select secret from calendar_connections where id = $1', [id])).rows[0]!.secret,
  );

const opensWith = (vault: CredentialsVault, sealed: string, id: string) => {
  try {
    return vault.available && vault.open(sealed, calendarSecretContext(id)) === SECRET;
  } catch {
    return false;
  }
};

describe('the credentials key', () => {
  it('rotate-credentials-key seals with a new key file; refused while the server runs; the server refuses to start without the key', async () => {
    const dataDir = migratedDataDir('rotate-cli');
    const id = await withConnectedCalendar(dataDir);
    const old = keyIn(dataDir);

    expect(await run('admin', dataDir, ['rotate-credentials-key', '--everything'])).toMatchObject({
      code: 2,
      output: expect.stringContaining('rotate-credentials-key [--forget-unreadable]'),
    });
    const rotated = await run('admin', dataDir, ['rotate-credentials-key']);
    const fresh = keyIn(dataDir);
    expect(rotated).toEqual({
      code: 0,
      output:
        `Resealed 1 of 1 calendar password, with a new key (key ${fresh.id}) in ${path.join(dataDir, KEY_FILE)}.\n` +
        'The old key is kept as credentials.key.previous beside it, for backups taken before now; a backup restores its calendars only with the key it was taken under.',
    });
    expect(keyIn(dataDir, PREVIOUS_KEY_FILE).id).toBe(old.id);
    const sealed = await secretOf(dataDir, id);
    expect(opensWith(createVault(fresh), sealed, id)).toBe(true);
    expect(opensWith(createVault(old), sealed, id)).toBe(false);

    const server = await startServer({ ...NO_POSTGRES, DATA_DIR: dataDir });
    running.push(server);
    const refused = await run('admin', dataDir, ['rotate-credentials-key']);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      /^admin rotate-credentials-key: DATA_DIR .* is in use by another process \(server, pid \d+ on .*\)\. Stop the server, run rotate-credentials-key, then start it again: a server reads the key when it starts\.$/,
    );
    expect(keyIn(dataDir).id).toBe(fresh.id);
    expect(await stopServer(server)).toBe(0);
    running.splice(0);

    // The key files left behind (a DATA_DIR copied without them): the server says so at once.
    const aside = path.join(tempDir('rotate-cli-keys'), KEY_FILE);
    renameSync(path.join(dataDir, KEY_FILE), aside);
    rmSync(path.join(dataDir, PREVIOUS_KEY_FILE));
    const start = await run('main', dataDir);
    expect(start.code).toBe(1);
    expect(start.output.split('\n').at(-1)).toBe(
      `1 connected calendar was sealed with a key this server does not have (key ${fresh.id}). Put the credentials.key file it was sealed with back into DATA_DIR ${dataDir} (or set CREDENTIALS_KEY to its content), then start again. If that key is lost, npm run admin -- rotate-credentials-key --forget-unreadable removes it, and its owner connects it again.`,
    );
    // Put back, it starts.
    renameSync(aside, path.join(dataDir, KEY_FILE));
    running.push(await startServer({ ...NO_POSTGRES, DATA_DIR: dataDir }));
  }, 120_000);

  it('a backup leaves the key files out, and a restore keeps the key in DATA_DIR, so the restored calendars open', async () => {
    const dataDir = migratedDataDir('backup-keys');
    const id = await withConnectedCalendar(dataDir);
    const key = keyIn(dataDir);
    const backupFile = path.join(tempDir('backup-keys-out'), 'crm.tar.gz');
    expect((await run('backup', dataDir, ['--out', backupFile])).code).toBe(0);
    const listing = execFileSync('tar', ['-tzf', backupFile], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(listing).toContain('PG_VERSION');
    expect(listing).not.toContain('credentials');

    const restore = await run('restore', dataDir, [backupFile]);
    expect(restore.code).toBe(0);
    expect(restore.output).toContain(
      `The backup holds 1 connected calendar, whose passwords open only with the key they were sealed with (${path.join(dataDir, KEY_FILE)}, kept as it was, or CREDENTIALS_KEY)`,
    );
    expect(keyIn(dataDir).id).toBe(key.id);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(opensWith(createVault(key), await secretOf(dataDir, id), id)).toBe(true);
    running.push(await startServer({ ...NO_POSTGRES, DATA_DIR: dataDir }));
  }, 120_000);
});
