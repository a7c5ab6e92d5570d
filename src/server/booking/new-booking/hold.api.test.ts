import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/secret-token.ts';
import { openFirm } from '../../test/booking-firm.ts';
import { rowsOf, useTestDatabase } from '../../test/database.ts';
import { holdForConfirmation } from './hold.ts';

const database = useTestDatabase();
// Email on (never sent: the test app's outbox is not started).
const MAIL_ON = { SMTP_URL: 'smtp://127.0.0.1:9', PUBLIC_URL: 'http://127.0.0.1:3000' };

const holdAt = (token: string, date: string) => ({
  token,
  hash: hashToken(token),
  date,
  time: '10:30',
  type: 'Call',
  visitorTimeZone: 'Europe/Paris',
  hostId: null,
});

describe('holdForConfirmation', () => {
  it('holds the time for 30 minutes and queues the email with its link; only the code’s hash is stored, with the client’s network', async () => {
    const firm = await openFirm(database, MAIL_ON);
    const token = await firm.newLink({ email: 'held@example.com' });
    const held = await holdForConfirmation(firm.request('203.0.113.7'), holdAt(token, firm.day(2)));
    const minutes = (Date.parse(held!.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);

    const [mail] = await rowsOf<{ to_address: string; link: string }>(
      database.db,
      sql`select to_address, data->>'link' as link from emails where kind = 'booking-confirmation'`,
    );
    expect(mail!.to_address).toBe('held@example.com');
    expect(mail!.link).toMatch(new RegExp(`^/booking/${token}/confirm/[A-Za-z0-9_-]{43}$`));
    const code = mail!.link.split('/')[4]!;
    const holds = await rowsOf(
      database.db,
      sql`select to_char(date, 'YYYY-MM-DD') as date, to_char(time, 'HH24:MI') as time, type, client_network, visitor_time_zone, host_id, confirm_hash from booking_holds`,
    );
    expect(holds).toEqual([
      {
        date: firm.day(2),
        time: '10:30',
        type: 'Call',
        client_network: '203.0.113.0/24',
        visitor_time_zone: 'Europe/Paris',
        host_id: null,
        confirm_hash: createHash('sha256').update(code).digest('hex'),
      },
    ]);
    // Held, not booked: the time is still offered to others.
    expect((await firm.openTimes(firm.day(2))).some((s) => s.startsWith(`${firm.day(2)}T10:30`))).toBe(true);
  });

  it('holds nothing when its email cannot be queued: the address spent what mail a visitor may cause today', async () => {
    // The lead form's acknowledgement spends the address's one.
    const firm = await openFirm(database, { ...MAIL_ON, PUBLIC_MAIL_PER_ADDRESS_PER_DAY: '1' });
    const token = await firm.newLink({ email: 'spent@example.com' });
    expect(await holdForConfirmation(firm.request(), holdAt(token, firm.day(2)))).toBeUndefined();
    expect(await rowsOf(database.db, sql`select 1 from booking_holds`)).toEqual([]);
    expect(await rowsOf(database.db, sql`select 1 from emails where kind = 'booking-confirmation'`)).toEqual([]);
  });
});
