import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';

describe('parseConfig', () => {
  it('uses the documented defaults', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      admin: undefined,
      businessTimeZone: 'America/New_York',
      leadRateLimit: 10,
      leadMinFillSeconds: 2,
      trustProxy: false,
    });
    expect(config.site.email).toMatch(/@/);
  });

  it('reads every variable', () => {
    const config = parseConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/crm',
      DATABASE_URL: 'postgres://u:p@db.internal:5432/crm',
      ADMIN_EMAIL: 'Boss@Example.com',
      ADMIN_PASSWORD: 'correct horse',
      SITE_NAME: 'Acme Diligence',
      SITE_EMAIL: 'hello@acme.test',
      SITE_PHONE: '+1 301 555 0000',
      BUSINESS_TIME_ZONE: 'America/Chicago',
      LEAD_RATE_LIMIT: '0',
      LEAD_MIN_FILL_SECONDS: '0',
      TRUST_PROXY: 'on',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/tmp/crm',
      databaseUrl: 'postgres://u:p@db.internal:5432/crm',
      admin: { email: 'boss@example.com', password: 'correct horse' },
      site: { name: 'Acme Diligence', email: 'hello@acme.test', phone: '+1 301 555 0000' },
      businessTimeZone: 'America/Chicago',
      leadRateLimit: 0,
      leadMinFillSeconds: 0,
      trustProxy: true,
    });
  });

  it.each([
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be a whole number from 0 to 65535, got "70000"'],
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a whole number from 0 to 65535, got "abc"'],
    [{ DATABASE_URL: 'not a url' }, 'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ LEAD_RATE_LIMIT: '-1' }, 'Invalid configuration: LEAD_RATE_LIMIT must be a whole number from 0 to 1000000, got "-1"'],
    [{ TRUST_PROXY: 'maybe' }, 'Invalid configuration: TRUST_PROXY must be on or off, got "maybe"'],
    [{ BUSINESS_TIME_ZONE: 'Mars/Olympus' }, 'Invalid configuration: BUSINESS_TIME_ZONE must be an IANA time zone such as America/New_York'],
    [{ ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'short' }, 'Invalid configuration: ADMIN_PASSWORD must be at least 8 characters'],
    [{ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'long enough' }, 'Invalid configuration: ADMIN_EMAIL Invalid email address'],
    [{ ADMIN_EMAIL: 'boss@example.com' }, 'Invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD must be set together'],
  ])('stops on %o with one clear line', (env, message) => {
    expect(() => parseConfig(env)).toThrowError(new ConfigError(message));
  });
});
