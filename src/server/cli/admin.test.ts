import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/process.ts';

// The admin CLI as an operator runs it: password on stdin, never on the command line.
const dataDir = tempDir('admin-cli');
const admin = (args: string[], input = '') => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli/admin.ts', ...args], {
    input,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
};

describe('npm run admin', () => {
  it('creates, lists, resets and deletes admins, with clear errors', () => {
    expect(admin(['create', 'Owner@Example.com'], 'first-password\n')).toMatchObject({ code: 0, out: 'Created admin owner@example.com.' });
    expect(admin(['create', 'owner@example.com'], 'first-password\n')).toMatchObject({
      code: 1,
      err: 'admin create: An admin with the email owner@example.com already exists (use reset-password).',
    });
    expect(admin(['create', 'short@example.com'], 'short\n')).toMatchObject({ code: 1, err: 'admin create: Password must be at least 8 characters' });
    expect(admin(['create', 'not-an-email'], 'long-enough\n')).toMatchObject({ code: 1, err: 'admin create: Invalid email address' });
    expect(admin(['list']).out).toMatch(/^owner@example\.com\t\d{4}-/);
    expect(admin(['reset-password', 'owner@example.com'], 'second-password\n')).toMatchObject({ code: 0 });
    expect(admin(['delete', 'owner@example.com'])).toMatchObject({ code: 0, out: 'Deleted owner@example.com; their sessions have ended.' });
    expect(admin(['list']).out).toBe('No admins yet.');
    expect(admin(['delete', 'owner@example.com'])).toMatchObject({ code: 1 });
    expect(admin(['frobnicate']).code).toBe(2);
    // Ten CLI processes one after another, each opening the embedded database: ~17 s on the
    // 2-core machine, over 30 s while the other test worker is busy.
  }, 120_000);
});
