import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OWNERS_ONLY } from '../auth/admin-route.ts';
import { runAdminCommand } from '../auth/admin-commands.ts';
import { hashPassword } from '../auth/password.ts';
import { sqlState } from '../db/database-faults.ts';
import { createSession } from '../db/queries/sessions-queries.ts';
import { NEEDS_AN_OWNER } from '../db/queries/team-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp } from '../test/test-app.ts';
import { rowsOf, testEngine, useTestDatabase } from '../test/database.ts';

// Two owners who demote, deactivate or remove each other at the same moment: one change wins,
// the other is refused, and the team always keeps an active owner. On PostgreSQL the two
// requests run on two connections of the pool at once; on PGlite (one connection) they queue,
// and the rule must hold all the same.

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let hash: string;

beforeAll(async () => {
  t = createTestApp(database);
  hash = await hashPassword('race-password');
});

type Team = { a: string; b: string; aCookie: string; bCookie: string };
let team: Team;

beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions cascade`);
  const rows = await rowsOf<{ id: string; email: string }>(
    database.db,
    sql`insert into users (email, display_name, password_hash, role) values
          ('anna@example.com', 'Anna', ${hash}, 'owner'), ('bert@example.com', 'Bert', ${hash}, 'owner'), ('stan@example.com', 'Stan', ${hash}, 'staff')
        returning id, email`,
  );
  const id = (email: string) => rows.find((r) => r.email === email)!.id;
  const a = id('anna@example.com');
  const b = id('bert@example.com');
  team = { a, b, aCookie: `session=${await createSession(database.db, a)}`, bCookie: `session=${await createSession(database.db, b)}` };
});

type Outcome = 'done' | 'refused' | string;

/**
 * Clear refusals: 409 with the owner message (the other change committed first), or, when the
 * other change had already taken this owner's role or account before this request was let in,
 * the answers any staff member or signed-out browser gets.
 */
const refusals: Record<number, string> = { 409: NEEDS_AN_OWNER, 403: OWNERS_ONLY, 401: 'Please sign in.' };

/** An API change: done (200), refused (see above), or what else it answered. */
async function api(cookie: string, method: string, path: string, body?: unknown): Promise<Outcome> {
  const res = await t.json(method, path, body, { cookie });
  if (res.status === 200) return 'done';
  const text = await res.text();
  if (refusals[res.status] === (JSON.parse(text) as { error: { message: string } }).error.message) return 'refused';
  return `${res.status} ${text}`;
}

/** An `npm run admin` command on its own connection: done, refused (the owner message), or its error. */
async function cli(command: Parameters<typeof runAdminCommand>[1]): Promise<Outcome> {
  try {
    await runAdminCommand(database.db, command);
    return 'done';
  } catch (err) {
    return err instanceof Error && err.message === NEEDS_AN_OWNER ? 'refused' : String(err);
  }
}

const demote = (cookie: string, id: string) => api(cookie, 'PATCH', `/api/team/members/${id}`, { role: 'staff' });
const deactivate = (cookie: string, id: string) => api(cookie, 'POST', `/api/team/members/${id}/deactivate`);
const remove = (cookie: string, id: string) => api(cookie, 'DELETE', `/api/team/members/${id}`);

/** Every pair of changes that can each take away one of the two owners, by every path that makes them. */
const races: [string, (x: Team) => [Promise<Outcome>, Promise<Outcome>]][] = [
  ['demote each other', (x) => [demote(x.aCookie, x.b), demote(x.bCookie, x.a)]],
  ['deactivate each other', (x) => [deactivate(x.aCookie, x.b), deactivate(x.bCookie, x.a)]],
  ['remove each other', (x) => [remove(x.aCookie, x.b), remove(x.bCookie, x.a)]],
  ['both step down at once', (x) => [demote(x.aCookie, x.a), demote(x.bCookie, x.b)]],
  ['demote one, deactivate the other', (x) => [demote(x.aCookie, x.b), deactivate(x.bCookie, x.a)]],
  ['deactivate one, remove the other', (x) => [deactivate(x.aCookie, x.b), remove(x.bCookie, x.a)]],
  [
    'the API demotes one while npm run admin demotes the other',
    (x) => [demote(x.aCookie, x.b), cli({ command: 'role', email: 'anna@example.com', role: 'staff' })],
  ],
  [
    'npm run admin deactivates one and deletes the other',
    () => [cli({ command: 'deactivate', email: 'anna@example.com' }), cli({ command: 'delete', email: 'bert@example.com' })],
  ],
];

const activeOwners = async () =>
  (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from users where role = 'owner' and deactivated_at is null`))[0]!
    .n;

describe(`two owners taking each other's place at once (${testEngine})`, () => {
  const ROUNDS = 50;
  const seen = new Map<string, number>();

  for (let round = 0; round < ROUNDS; round++) {
    const [name, race] = races[round % races.length]!;
    it(`round ${round + 1}: ${name}: one change wins, the other is refused, an active owner stays`, async () => {
      const outcomes = await Promise.all(race(team));
      seen.set(name, (seen.get(name) ?? 0) + 1);
      expect(outcomes.toSorted()).toEqual(['done', 'refused']);
      expect(await activeOwners()).toBe(1);
    });
  }

  it('every kind of race ran', () => {
    expect([...seen.keys()].toSorted()).toEqual(races.map(([name]) => name).toSorted());
  });
});

describe.runIf(testEngine === 'postgres')('a writer outside the app', () => {
  it('is held to it by the trigger: its demotion waits for the other one in flight, then is refused (23514)', async () => {
    const db = database.db;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let updated!: () => void;
    const firstUpdated = new Promise<void>((resolve) => (updated = resolve));
    // As psql would: plain statements, no lock taken by the writer itself.
    const first = db.transaction(async (tx) => {
      await tx.execute(sql`update users set role = 'staff' where email = 'anna@example.com'`);
      updated();
      await held;
    });
    await firstUpdated;
    let settled = false;
    const second = db
      .transaction(async (tx) => {
        await tx.execute(sql`update users set deactivated_at = now() where email = 'bert@example.com'`);
      })
      .then(
        () => 'committed',
        (err: unknown) => sqlState(err) ?? String(err),
      )
      .finally(() => (settled = true));
    // The second waits for the first's lock (or, without it, has already passed the check).
    const waiting = async () =>
      (
        await rowsOf<{ n: number }>(
          db,
          sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
        )
      )[0]!.n === 1;
    await vi.waitUntil(async () => settled || (await waiting()), { timeout: 10_000, interval: 20 });
    release();
    await first;
    expect(await second).toBe('23514');
    expect(await activeOwners()).toBe(1);
  });
});
