import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CalendarFeed } from '#shared/schemas/appointment';
import type { EmailOverview } from '#shared/schemas/email';
import type { TimelineResponse } from '#shared/schemas/lead-workspace';
import type { TwoFactorSetup } from '#shared/schemas/two-factor';
import { defaultWebsiteContent } from '#shared/website-content';
import { ensureAdmin } from '../auth/accounts.ts';
import { saveWebsiteContent } from '../db/queries/website-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/*
 * The brand saved in Settings → Website is the one the product names outside the public pages
 * too: the subjects listed in Settings → Email and on a lead's timeline, the calendar feed's
 * name, the authenticator app's label. SITE_NAME is only the default.
 */
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
beforeAll(() => {
  t = createTestApp(database, { SITE_NAME: 'Keystone Due Diligence', MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>' });
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, emails, calendar_feeds, website_settings, public_mail_spends cascade`);
  await ensureAdmin(database.db, 'ann@example.com', 'ann-password');
  cookie = await signIn(t.json, 'ann@example.com', 'ann-password');
  await saveWebsiteContent(database.db, { ...defaultWebsiteContent('Keystone Due Diligence'), site_name: 'Chesapeake Underwriting' });
});

const get = async <T>(path: string) => {
  const res = await t.json('GET', path, undefined, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};

describe('the brand saved in Settings → Website', () => {
  it('names the messages in Settings → Email and on the lead’s timeline', async () => {
    expect((await t.json('POST', '/api/public/leads', validLead({ email: 'jane@example.com' }))).status).toBe(201);
    const overview = await get<EmailOverview>('/api/email');
    expect(overview.messages.map((m) => m.subject)).toContain('We received your request: Chesapeake Underwriting');
    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads`);
    const timeline = await get<TimelineResponse>(`/api/leads/${lead!.id}/timeline`);
    expect(timeline.entries.flatMap((e) => (e.kind === 'email_out' ? [e.subject] : []))).toEqual([
      'We received your request: Chesapeake Underwriting',
    ]);
  });

  it('names the calendar feed and the account in the authenticator app', async () => {
    const feed = (await (await t.json('POST', '/api/calendar-feed', undefined, { cookie })).json()) as CalendarFeed;
    const ics = await (await t.app.request(new URL(feed.url!).pathname)).text();
    expect(ics).toContain('X-WR-CALNAME:Chesapeake Underwriting appointments');
    const setup = (await (await t.json('POST', '/api/account/two-factor/setup', undefined, { cookie })).json()) as TwoFactorSetup;
    const uri = new URL(setup.otpauth_uri);
    expect(uri.searchParams.get('issuer')).toBe('Chesapeake Underwriting');
    expect(decodeURIComponent(uri.pathname)).toContain('Chesapeake Underwriting');
  });
});
