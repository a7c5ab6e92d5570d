import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Availability } from '#shared/schemas/booking';
import { addDays, zonedParts } from '#shared/zoned-time';
import type { Db } from '../db/client.ts';
import { execute } from '../db/sql.ts';
import type { createTestApp } from './test-app.ts';
import { validLead } from './test-app.ts';
import { rowsOf } from './database.ts';

/** A browser's user agent: the event route drops bots. */
export const BROWSER_AGENT =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

export type Person = { full_name: string; email: string; phone: string };
export type PersonRecord = { id: string; sessionIds: [string, string]; bookingToken: string; pageEvents: number };

type TestApp = ReturnType<typeof createTestApp>;

/**
 * A person with everything the product can hold about them, made the way it happens: two
 * visits, each ending in the public form (the second joins the lead as an inquiry), a call
 * booked through their link, an appointment staff made (with notes and a place), a status,
 * owner and deal fields, a note, and the older notifications that named them only in words.
 * The app must run with booking open (OPEN_EVERY_DAY) in `timeZone`; `slot` picks the booked time
 * (one per person), `tag` (8 letters) their analytics session ids.
 */
export async function makePerson(
  t: TestApp,
  db: Db,
  cookie: string,
  person: Person,
  { adminId, timeZone, tag, slot }: { adminId: string; timeZone: string; tag: string; slot: number },
): Promise<PersonRecord> {
  const sessionIds: [string, string] = [`${tag}Visit1xxxxxxxxxx`.slice(0, 22), `${tag}Visit2xxxxxxxxxx`.slice(0, 22)];
  let pageEvents = 0;
  const visit = async (sessionId: string, message: string) => {
    for (const body of [
      { session_id: sessionId, event_type: 'pageview', page_path: '/', referrer: 'https://www.google.com/', utm_source: 'newsletter' },
      { session_id: sessionId, event_type: 'heartbeat', page_path: '/', time_spent: 30 },
      { session_id: sessionId, event_type: 'pageview', page_path: '/careers' },
    ]) {
      expect((await t.json('POST', '/api/public/events', body, { 'user-agent': BROWSER_AGENT })).status).toBe(204);
      pageEvents += 1;
    }
    const res = await t.json('POST', '/api/public/leads', validLead({ ...person, message, analytics_session_id: sessionId }));
    expect(res.status).toBe(201);
    return ((await res.json()) as { booking_token: string }).booking_token;
  };
  const bookingToken = await visit(sessionIds[0], `First message from ${person.full_name}`);
  await visit(sessionIds[1], `Second message, call ${person.phone}`);
  const [lead] = await rowsOf<{ id: string }>(db, sql`select id from leads where email = ${person.email}`);
  const id = lead!.id;

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await t.json(method, path, body, { cookie });
    expect({ path, status: res.status }).toMatchObject({ path, status: 200 + (method === 'POST' ? 1 : 0) });
    return res.json() as Promise<unknown>;
  };
  // A call booked through their private link (a "New booking: Name, …" notification for every admin).
  const bookingDay = addDays(zonedParts(Date.now(), timeZone).date, 2);
  const open = (await (await t.json('GET', `/api/public/availability?from=${bookingDay}&to=${bookingDay}`)).json()) as Availability;
  expect(
    (await t.json('POST', '/api/public/bookings', { booking_token: bookingToken, start: open.slots[slot]!, type: 'Call' })).status,
  ).toBe(201);
  await admin('POST', '/api/appointments', {
    lead_id: id,
    date: addDays(bookingDay, 1),
    time: '11:00',
    type: 'On-site',
    notes: `Gate code 4412, ask for ${person.full_name}`,
    location: `Near ${person.email}`,
    allow_overlap: true,
  });
  await admin('PATCH', `/api/leads/${id}`, {
    status: 'Contacted',
    owner_id: adminId,
    property_address: '12 Erasable Lane, Frederick, MD',
    estimated_fee_cents: 125_000,
    follow_up_on: addDays(bookingDay, 5),
    follow_up_note: `Call ${person.full_name} back`,
  });
  await execute(
    db,
    sql`insert into lead_notes (lead_id, author_id, body) values (${id}, ${adminId}, ${`Spoke with ${person.full_name} at ${person.phone}`})`,
  );
  // Written before notifications named their lead.
  await execute(
    db,
    sql`insert into notifications (user_id, type, message) values
    (${adminId}, 'lead', ${`New lead: ${person.full_name} (${person.email})`}),
    (${adminId}, 'appointment', ${`Upcoming Call with ${person.full_name} at 10:00 AM`})`,
  );
  return { id, sessionIds, bookingToken, pageEvents };
}
