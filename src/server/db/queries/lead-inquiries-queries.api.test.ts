import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf, testEngine, untilTrue, useTestDatabase } from '../../test/database.ts';
import { transaction } from '../sql.ts';
import { lockEmail, submitPublicLead } from './lead-inquiries-queries.ts';
import { createLead } from './leads-queries.ts';
import { ensureAdmin } from '../../auth/accounts.ts';

const database = useTestDatabase();

const mail = { domain: 'example.com', sending: true, acknowledge: true };
const form = (email: string) => ({
  full_name: 'Jane Doe',
  email,
  phone: '(301) 555-0100',
  property_types: ['land' as const],
  message: 'A lot outside Frederick.',
  submission_id: crypto.randomUUID(),
});
const leadsOf = async (email: string) =>
  (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from leads where email = ${email}`))[0]!.n;

describe('a public submission of a new person, in one statement', () => {
  it('stores the lead, its notification and its mail, and tells the caller what to announce', async () => {
    await ensureAdmin(database.db, 'owner@example.com', 'password-password-1', 'owner', 'Owner');
    const result = await submitPublicLead(database.db, form('one-statement@example.com'), { mail, bookingTokenHash: crypto.randomUUID() });
    expect(result).toMatchObject({ created: true, repeated: false, id: expect.any(String) });
    expect(await leadsOf('one-statement@example.com')).toBe(1);
    const [stored] = await rowsOf<{ notices: string[]; emails: number }>(
      database.db,
      sql`select array(select n.id::text from notifications n where n.lead_id = l.id) as notices,
            (select count(*)::int from emails e where e.lead_id = l.id) as emails
          from leads l where l.email = 'one-statement@example.com'`,
    );
    expect(result !== 'token_reused' && result.notices).toEqual(stored!.notices);
    expect(stored!.emails).toBe(2);
  });

  // Two connections are needed to race; PGlite has one. The second submission's statement starts
  // (and takes its snapshot) while the first holds the email's lock with a lead not yet
  // committed. Deciding "new person" with that snapshot would store a second lead.
  it.runIf(testEngine === 'postgres')('decides after the email’s lock, seeing the lead its previous holder committed', async () => {
    const email = `raced-${crypto.randomUUID().slice(0, 8)}@example.com`;
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const first = transaction(database.db, async (t) => {
      await lockEmail(t, email);
      await createLead(t, form(email));
      holding();
      await released;
    });
    await held;
    const second = submitPublicLead(database.db, form(email), { mail, bookingTokenHash: crypto.randomUUID() });
    await untilTrue(
      'the second submission waits for the email’s lock',
      async () =>
        (
          await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`)
        )[0]!.n === 1,
      10_000,
      20,
    );
    release();
    await first;
    // Known by then: an inquiry on the first lead, not a lead of its own.
    expect(await second).toMatchObject({ created: true, repeated: true });
    expect(await leadsOf(email)).toBe(1);
  });
});
