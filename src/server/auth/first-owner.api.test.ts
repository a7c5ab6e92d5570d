import { sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { FirstRunLink } from '../lib/first-run-link.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { requireSetupLink, SETUP_NOT_VALID, setUpFirstOwner } from './first-owner.ts';

const database = useTestDatabase();
const actor = { ip: '203.0.113.9', userAgent: 'test' };
const logger = pino({ level: 'silent' });
beforeEach(async () => {
  await execute(database.db, sql`truncate users, audit_log cascade`);
});
const owner = (token: string, email = 'olive@example.com') => ({ token, email, displayName: 'Olive Owner', password: 'olive-password-1' });

describe('requireSetupLink', () => {
  it('takes the token the process issued, nothing else, and nothing without one', () => {
    const link = new FirstRunLink();
    expect(() => requireSetupLink(link, 'A'.repeat(43))).toThrow(SETUP_NOT_VALID);
    const token = link.issue();
    expect(requireSetupLink(link, token)).toBe(link);
    expect(() => requireSetupLink(link, 'A'.repeat(43))).toThrow(SETUP_NOT_VALID);
    expect(() => requireSetupLink(undefined, token)).toThrow(SETUP_NOT_VALID);
  });
});

describe('setUpFirstOwner', () => {
  it('creates the first owner and uses the link up', async () => {
    const link = new FirstRunLink();
    const token = link.issue();
    const user = await setUpFirstOwner(database.db, link, owner(token), actor, logger);
    expect(user).toMatchObject({ email: 'olive@example.com', display_name: 'Olive Owner', role: 'owner' });
    expect(link.pending).toBe(false);
    expect(await refusalOf(setUpFirstOwner(database.db, link, owner(token, 'again@example.com'), actor, logger))).toMatchObject({
      status: 404,
      message: SETUP_NOT_VALID,
    });
  });

  it('sets up nobody once an account exists, however many links were printed (another process’s won)', async () => {
    const [first, second] = [new FirstRunLink(), new FirstRunLink()];
    const [a, b] = [first.issue(), second.issue()];
    await setUpFirstOwner(database.db, first, owner(a), actor, logger);
    expect(await refusalOf(setUpFirstOwner(database.db, second, owner(b, 'late@example.com'), actor, logger))).toMatchObject({
      status: 404,
      message: SETUP_NOT_VALID,
    });
    expect(second.pending).toBe(false);
    expect(await rowsOf(database.db, sql`select email from users`)).toEqual([{ email: 'olive@example.com' }]);
  });
});
