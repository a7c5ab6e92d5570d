import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The files in deploy/ as an operator installs them: systemd accepts the units without a
 * single warning and rates the service's exposure low, and Caddy accepts the Caddyfile with the
 * settings docs/operations.md documents. CI installs systemd and caddy, so there these never skip.
 */
const DEPLOY = path.resolve('deploy');
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const required = process.env.CI === 'true';
const scratch = mkdtempSync(path.join(os.tmpdir(), 'crm-deploy-units-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(!required && !has('systemd-analyze'))('deploy/ systemd units', () => {
  const units = ['crm.service', 'crm-backup.service', 'crm-backup.timer'];
  for (const unit of units) copyFileSync(path.join(DEPLOY, unit), path.join(scratch, unit));

  it('pass systemd-analyze verify with nothing to say', () => {
    const run = spawnSync('systemd-analyze', ['verify', ...units], { cwd: scratch, encoding: 'utf8' });
    // verify exits 0 on an unknown key or a bad value and only prints them: any output is a defect.
    expect(`${run.stdout}${run.stderr}`.trim()).toBe('');
    expect(run.status).toBe(0);
  });

  it('run the server as its own user, restarted always, with a low exposure score', () => {
    const unit = readFileSync(path.join(scratch, 'crm.service'), 'utf8');
    expect(unit).toMatch(/^User=crm$/m);
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/^ProtectSystem=strict$/m);
    expect(unit).toMatch(/^NoNewPrivileges=yes$/m);
    const security = spawnSync('systemd-analyze', ['security', '--offline=true', '--no-pager', 'crm.service'], {
      cwd: scratch,
      encoding: 'utf8',
    });
    const level = /Overall exposure level for crm\.service: ([\d.]+)/.exec(security.stdout);
    expect(level, security.stdout + security.stderr).not.toBeNull();
    // 0 is fully locked down, 10 is unprotected; systemd calls below 2 "OK".
    expect(Number(level![1])).toBeLessThan(2);
  });

  it('run what `npm run build` made, with node, never building or going through npm', () => {
    expect(readFileSync(path.join(scratch, 'crm.service'), 'utf8')).toMatch(/^ExecStart=\/usr\/bin\/node dist\/server\/main\.js$/m);
    const backup = readFileSync(path.join(scratch, 'crm-backup.service'), 'utf8');
    expect(backup).toMatch(/^ExecStart=\/usr\/bin\/node dist\/server\/cli\/backup\.js --out-dir \/var\/lib\/crm\/backups$/m);
    expect(backup).not.toMatch(/^ExecStart=.*\b(npm|tsx)\b/m);
  });
});

describe.skipIf(!required && !has('caddy'))('deploy/Caddyfile', () => {
  const validate = (env: Record<string, string>) =>
    spawnSync('caddy', ['validate', '--config', path.join(DEPLOY, 'Caddyfile'), '--adapter', 'caddyfile'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: scratch, XDG_DATA_HOME: scratch, XDG_CONFIG_HOME: scratch, ...env },
    });

  it('is valid for one domain and one app process, and for several processes', () => {
    const settings: Record<string, string>[] = [
      { CRM_DOMAIN: 'crm.example.com' },
      { CRM_DOMAIN: 'crm.example.com', CRM_UPSTREAMS: '127.0.0.1:3001 127.0.0.1:3002 127.0.0.1:3003' },
    ];
    for (const env of settings) {
      const run = validate(env);
      expect(run.stdout + run.stderr).toContain('Valid configuration');
      expect(run.status).toBe(0);
    }
  });

  it('proxies to every upstream listed, checking each one’s health', () => {
    const adapted = spawnSync('caddy', ['adapt', '--config', path.join(DEPLOY, 'Caddyfile'), '--adapter', 'caddyfile'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: scratch, CRM_DOMAIN: 'crm.example.com', CRM_UPSTREAMS: '127.0.0.1:3001 127.0.0.1:3002' },
    });
    expect(adapted.status, adapted.stderr).toBe(0);
    const text = adapted.stdout;
    expect(text).toContain('"dial":"127.0.0.1:3001"');
    expect(text).toContain('"dial":"127.0.0.1:3002"');
    expect(text).toContain('"uri":"/api/health"');
    expect(text).toContain('"host":["crm.example.com"]');
  });
});
