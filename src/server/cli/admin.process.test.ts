import { spawn, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir, signInOverHttp, sourceArgs, startServer, type ServerProcess } from '../test/process.ts';

// The admin CLI as an operator runs it: password on stdin, never on the command line.
const run = (dataDir: string, args: string[], input = '') => {
  const r = spawnSync(process.execPath, [...sourceArgs('src/server/cli/admin.ts'), ...args], {
    input,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
};

/** The same, without blocking this process (the server under test answers meanwhile). */
const runAsync = (dataDir: string, args: string[], input = '') =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [...sourceArgs('src/server/cli/admin.ts'), ...args], {
      env: { ...process.env, DATA_DIR: dataDir },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => resolve({ code, out: out.trim(), err: err.trim() }));
    child.stdin.end(input);
  });

describe('npm run admin', () => {
  it('creates, lists, resets and deletes accounts, with clear errors', () => {
    const dataDir = migratedDataDir('admin-cli');
    const admin = (args: string[], input = '') => run(dataDir, args, input);
    // Without --name, the part of the email before the @.
    expect(admin(['create', 'Owner@Example.com'], 'first-password\n')).toMatchObject({
      code: 0,
      out: 'Created owner owner <owner@example.com>.',
    });
    expect(admin(['create', 'owner@example.com'], 'first-password\n')).toMatchObject({
      code: 1,
      err: 'admin create: An admin with the email owner@example.com already exists (use reset-password).',
    });
    expect(admin(['create', 'short@example.com'], 'short\n')).toMatchObject({
      code: 1,
      err: 'admin create: Password must be at least 8 characters',
    });
    expect(admin(['create', 'not-an-email'], 'long-enough\n')).toMatchObject({ code: 1, err: 'admin create: Invalid email address' });
    expect(admin(['list']).out).toMatch(/^owner@example\.com\towner\tactive\t-\t\d{4}-[^\t]+\towner$/);
    expect(admin(['reset-password', 'owner@example.com'], 'second-password\n')).toMatchObject({ code: 0 });
    expect(admin(['delete', 'owner@example.com'])).toMatchObject({ code: 0, out: 'Deleted owner@example.com; their sessions have ended.' });
    expect(admin(['list']).out).toBe('No admins yet.');
    expect(admin(['delete', 'owner@example.com'])).toMatchObject({ code: 1 });
    expect(admin(['frobnicate']).code).toBe(2);
    expect(admin(['role', 'owner@example.com', 'boss']).code).toBe(2);
    // Ten CLI processes one after another, each opening the embedded database: ~17 s on the
    // 2-core machine, over 30 s while the other test worker is busy.
  }, 120_000);

  describe('while the server runs on the embedded database', () => {
    const dataDir = migratedDataDir('admin-cli-live');
    let server: ServerProcess;
    afterAll(async () => {
      await server?.stop();
    });

    it('the server carries the commands out: staff created, sign-in works, the last owner is kept, deactivation ends a session', async () => {
      server = await startServer({
        DATA_DIR: dataDir,
        ADMIN_EMAIL: 'boss@example.com',
        ADMIN_PASSWORD: 'boss-password',
        ADMIN_NAME: 'Bea Boss',
      });
      const admin = (args: string[], input = '') => runAsync(dataDir, args, input);
      expect(await admin(['create', 'sam@example.com', '--name', 'Sam Staff', '--role', 'staff'], 'sam-password\n')).toMatchObject({
        code: 0,
        out: 'Created staff Sam Staff <sam@example.com>.',
      });
      const cookie = await signInOverHttp(server.url, { email: 'sam@example.com', password: 'sam-password' });
      const session = async () =>
        ((await (await fetch(`${server.url}/api/auth/session`, { headers: { cookie } })).json()) as { user: { role: string } | null }).user;
      expect(await session()).toMatchObject({ role: 'staff', display_name: 'Sam Staff' });

      // ADMIN_NAME named the ADMIN_EMAIL account.
      expect(
        (await admin(['list'])).out
          .split('\n')
          .map((l) => l.split('\t'))
          .map(([email, role, active, , , name]) => [email, role, active, name]),
      ).toEqual([
        ['boss@example.com', 'owner', 'active', 'Bea Boss'],
        ['sam@example.com', 'staff', 'active', 'Sam Staff'],
      ]);
      expect(await admin(['role', 'boss@example.com', 'staff'])).toMatchObject({
        code: 1,
        err: expect.stringContaining('at least one active owner'),
      });
      expect(await admin(['deactivate', 'sam@example.com'])).toMatchObject({
        code: 0,
        out: 'Deactivated sam@example.com; their sessions have ended.',
      });
      expect(await session()).toBeNull();
      expect(await admin(['reactivate', 'sam@example.com'])).toMatchObject({ code: 0 });
      expect(await admin(['reset-password', 'sam@example.com'], 'sam-new-password\n')).toMatchObject({ code: 0 });
      expect(await admin(['reset-two-factor', 'sam@example.com'])).toMatchObject({
        code: 0,
        out: expect.stringContaining('Two-factor is off for sam@example.com'),
      });
      await signInOverHttp(server.url, { email: 'sam@example.com', password: 'sam-new-password' });
    }, 120_000);
  });
});
