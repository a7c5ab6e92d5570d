import { describe, expect, it } from 'vitest';
import { EMAIL_KINDS, type EmailKind } from '../db/queries/emails-queries.ts';
import type { WeeklyReportData } from '../lib/weekly-report-data.ts';
import { composeEmail, emailSubject } from './messages.ts';
import type { MailContext } from './templates/render.ts';
import { WEEKLY_REPORT_DEFINITIONS } from './templates/weekly-report.ts';

const ctx: MailContext = {
  site: { name: 'Keystone Due Diligence', email: 'hello@keystone.example', phone: '(301) 555-0100', address: 'Frederick, MD' },
  publicUrl: 'https://crm.keystone.example',
  from: { name: 'Keystone', address: 'hello@keystone.example' },
  domain: 'keystone.example',
  transport: 'no mail server (email is off)',
};
const lead = {
  lead_id: 'lead-1',
  full_name: 'Jane Doe',
  email: 'jane@example.com',
  phone: '555',
  property_types: ['land'],
  message: null,
  source: null,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  landing_page: null,
};
const appointment = (audience: 'lead' | 'staff', change: 'scheduled' | 'updated' | 'cancelled') => ({
  appointment_id: 'appt-1',
  change,
  audience,
  type: 'Zoom',
  date: '2030-12-02',
  time: '14:30',
  time_zone: 'America/New_York',
  starts_at: '2030-12-02T19:30:00.000Z',
  sequence: 0,
  notes: null,
  lead_id: 'lead-1',
  lead_name: 'Jane Doe',
  lead_email: 'jane@example.com',
  lead_phone: '555',
});
const weeklyReport = (over: Partial<WeeklyReportData> = {}): WeeklyReportData => ({
  from: '2030-11-18',
  to: '2030-11-24',
  time_zone: 'America/New_York',
  week: { visitors: 1200, leads: 14, bookings: 6, conversions: 3, fees_cents: 1_250_050 },
  previous: { visitors: 1000, leads: 20, bookings: 6, conversions: 1, fees_cents: 500_000 },
  top_sources: [
    { label: '<img src=x onerror=alert(1)>.example', clients: 2, fees_cents: 750_050 },
    { label: 'Direct', clients: 1, fees_cents: 500_000 },
  ],
  follow_ups: {
    as_of: '2030-11-25',
    due: 7,
    leads: [
      { lead_id: 'lead-1', full_name: 'Tom "Tables" <b>Bold</b>', follow_up_on: '2030-11-20' },
      { lead_id: 'lead-2', full_name: 'Jane Doe', follow_up_on: '2030-11-25' },
    ],
  },
  ...over,
});
const SNAPSHOTS: [EmailKind, unknown][] = [
  ['new-lead', lead],
  ['lead-acknowledgement', lead],
  ...(['lead', 'staff'] as const).flatMap((audience) =>
    (['scheduled', 'updated', 'cancelled'] as const).map((change): [EmailKind, unknown] => ['appointment', appointment(audience, change)]),
  ),
  [
    'appointment-reminder',
    { appointment_id: 'appt-1', type: 'Call', time_zone: 'America/New_York', starts_at: '2030-12-02T19:30:00.000Z', lead_name: 'Jane Doe' },
  ],
  ['test', {}],
  ['invite', { link: 'https://crm.example.com/invite/abc', role: 'staff', invited_by: 'olive@example.com', expires_hours: 72 }],
  ['password-reset', { link: 'https://crm.example.com/reset-password/abc', expires_minutes: 30 }],
  ['password-changed', { how: 'reset_link', keys: [{ name: 'Partner <form>', prefix: 'crm_abcd1234' }] }],
  ['weekly-report', weeklyReport()],
  [
    'booking-confirmation',
    {
      link: '/booking/tok/confirm/code',
      type: 'Zoom',
      time_zone: 'America/New_York',
      starts_at: '2030-12-02T19:30:00.000Z',
      expires_at: '2030-11-25T15:42:00.000Z',
    },
  ],
  ['lead-message', { subject: 'Your report\r\nBcc: x@evil.test', body: 'Hi', writer: 'Dana Whitfield', reply_to: null }],
  [
    'lead-reply',
    {
      lead_id: 'l1',
      lead_name: 'Jane Doe',
      from: 'jane@example.com',
      subject: 'Re: Your report\r\nBcc: x@evil.test',
      excerpt: 'Thursday works.',
    },
  ],
  [
    'task-digest',
    {
      date: '2030-12-02',
      time_zone: 'America/New_York',
      overdue: 2,
      today: 3,
      tasks: [
        { due_at: '2030-12-02T14:00:00.000Z', type: 'call', title: 'Survey\r\nBcc: x@evil.test', lead_id: 'l1', lead_name: 'Jane Doe' },
      ],
    },
  ],
];

describe("a held booking's confirmation", () => {
  it('links the confirmation page under PUBLIC_URL, says the time is not held and for how long the link works, and names nobody', () => {
    const data = {
      link: '/booking/tok/confirm/code',
      type: 'Zoom',
      time_zone: 'America/New_York',
      starts_at: '2030-12-02T19:30:00.000Z',
      expires_at: '2030-11-25T15:42:00.000Z',
    };
    const mail = composeEmail('booking-confirmation', data, ctx);
    expect(mail.subject).toBe('Confirm your call with Keystone Due Diligence');
    expect(mail.text).toMatch(/^Hello,\n/);
    expect(mail.text).toContain('asked to book a Zoom call with Keystone Due Diligence on Monday, December 2, 2030 at 2:30 PM EST.');
    expect(mail.text).toContain('The link works for 30 minutes, until 10:42 AM EST.');
    expect(mail.text).toContain(`Confirm my call: ${ctx.publicUrl}/booking/tok/confirm/code`);
    expect(mail.html).toContain(`href="${ctx.publicUrl}/booking/tok/confirm/code"`);
  });
});

describe('a booked time, to the visitor who booked it online', () => {
  const LA = 'America/Los_Angeles';
  it('reads on their clock first and the firm’s beside it, in the confirmation, the move, the cancellation and the reminder', () => {
    const lines = { scheduled: 'is booked for', updated: 'it is now on', cancelled: 'on' } as const;
    for (const change of ['scheduled', 'updated', 'cancelled'] as const) {
      const mail = composeEmail('appointment', { ...appointment('lead', change), visitor_time_zone: LA }, ctx);
      expect(mail.text).toContain(`${lines[change]} Monday, December 2, 2030 at 11:30 AM PST (2:30 PM EST)`);
      expect(mail.subject).toMatch(/, Mon, Dec 2, 11:30 AM PST \(2:30 PM EST\)$/);
      // The calendar invitation is in UTC either way.
      expect(mail.icalEvent!.content).toContain('DTSTART:20301202T193000Z');
    }
    const reminder = composeEmail(
      'appointment-reminder',
      {
        appointment_id: 'appt-1',
        type: 'Call',
        time_zone: 'America/New_York',
        starts_at: '2030-12-02T19:30:00.000Z',
        lead_name: 'Jane Doe',
        visitor_time_zone: LA,
      },
      ctx,
    );
    expect(reminder.subject).toBe('Reminder: your call with Keystone Due Diligence, Mon, Dec 2, 11:30 AM PST (2:30 PM EST)');
    expect(reminder.text).toContain(
      'A reminder of your call with Keystone Due Diligence on Monday, December 2, 2030 at 11:30 AM PST (2:30 PM EST).',
    );
  });

  it('reads once when the clocks agree, or the zone is not known, and staff read the firm’s clock', () => {
    for (const zone of ['America/New_York', 'America/Detroit', null, 'Not/A_Zone']) {
      const mail = composeEmail('appointment', { ...appointment('lead', 'scheduled'), visitor_time_zone: zone }, ctx);
      expect(mail.text).toContain('is booked for Monday, December 2, 2030 at 2:30 PM EST.');
      expect(mail.subject).toBe('Confirmed: your Zoom call with Keystone Due Diligence, Mon, Dec 2, 2:30 PM');
    }
    const staff = composeEmail('appointment', { ...appointment('staff', 'scheduled'), visitor_time_zone: LA }, ctx);
    expect(staff.subject).toBe('Scheduled: Zoom with Jane Doe, Mon, Dec 2, 2:30 PM');
    expect(staff.text).not.toContain('PST');
  });
});

describe('the invitation', () => {
  it('names who invited, the role and the link, which works once for 72 hours', () => {
    const mail = composeEmail(
      'invite',
      { link: 'https://crm.example.com/invite/abc', role: 'staff', invited_by: 'olive@example.com', expires_hours: 72 },
      ctx,
    );
    expect(mail.text).toContain('olive@example.com invited you to join');
    expect(mail.text).toContain('as a member of staff');
    expect(mail.text).toContain('Accept the invitation and choose a password: https://crm.example.com/invite/abc');
    expect(mail.text).toContain('for 72 hours');
    expect(mail.html).toContain('href="https://crm.example.com/invite/abc"');
    // A message whose link was removed (sent already) cannot be composed again.
    expect(() => composeEmail('invite', { role: 'staff', invited_by: null, expires_hours: 72 }, ctx)).toThrow();
  });
});

describe('the weekly report', () => {
  it('gives each figure with its change, the top sources, the follow-ups due, the Analytics link and how it counts', () => {
    const mail = composeEmail('weekly-report', weeklyReport(), ctx);
    expect(mail.subject).toBe('Weekly report: Nov 18 – Nov 24, 2030');
    expect(mail.text).toContain('Last week at Keystone Due Diligence: Monday, November 18, 2030 to Sunday, November 24, 2030.');
    expect(mail.text).toContain('Visitors: 1,200 (up 200 from 1,000)');
    expect(mail.text).toContain('Leads: 14 (down 6 from 20)');
    expect(mail.text).toContain('Calls booked: 6 (same as the week before)');
    expect(mail.text).toContain('Clients won: 3 (up 2 from 1)');
    expect(mail.text).toContain('Fees: $12,500.50 (up $7,500.50 from $5,000)');
    expect(mail.text).toContain(
      'Top sources by clients\n<img src=x onerror=alert(1)>.example: 2 clients, $7,500.50 in fees\nDirect: 1 client, $5,000 in fees\n',
    );
    expect(mail.text).toContain('7 leads have follow-ups due on or before Monday, November 25, 2030; the oldest 2:');
    expect(mail.text).toContain('Tom "Tables" <b>Bold</b>: Wed, Nov 20, 2030\nJane Doe: Mon, Nov 25, 2030\n');
    expect(mail.text).toContain(
      'Open the Analytics page for that week: https://crm.keystone.example/dashboard/analytics?period=custom&from=2030-11-18&to=2030-11-24',
    );
    expect(mail.text).toContain(WEEKLY_REPORT_DEFINITIONS);
    expect(mail.text.indexOf(WEEKLY_REPORT_DEFINITIONS)).toBeLessThan(mail.text.indexOf('--\nKeystone Due Diligence'));
    // What visitors and staff typed (a referring host, a lead's name) is text in the HTML part, never markup.
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;.example');
    expect(mail.html).toContain('Tom &quot;Tables&quot; &lt;b&gt;Bold&lt;/b&gt;');
    expect(mail.html).toContain(
      'href="https://crm.keystone.example/dashboard/analytics?period=custom&amp;from=2030-11-18&amp;to=2030-11-24"',
    );
    expect(mail.html).toContain(
      '<th style="text-align:left;padding:4px 12px 4px 0;vertical-align:top;color:#475569">Fees</th><td style="padding:4px 0;white-space:pre-wrap">$12,500.50 (up $7,500.50 from $5,000)</td>',
    );
  });

  it('says so when no client was won and no follow-up is due', () => {
    const mail = composeEmail(
      'weekly-report',
      weeklyReport({ top_sources: [], follow_ups: { as_of: '2030-11-25', due: 0, leads: [] } }),
      ctx,
    );
    expect(mail.text).toContain('Top sources by clients\nNo clients won that week.');
    expect(mail.text).toContain('No follow-ups due on or before Monday, November 25, 2030.');
    expect(mail.html).not.toContain('<table style="border-collapse:collapse;margin:0 0 16px"></table>');
  });

  it('cannot be composed from a snapshot that does not fit', () => {
    expect(() => composeEmail('weekly-report', { from: '2030-11-18' }, ctx)).toThrow();
    expect(emailSubject('weekly-report', { from: '2030-11-18' }, ctx)).toBe('(weekly-report)');
  });
});

describe('emailSubject', () => {
  it('is the subject the outbox composes, for every kind', () => {
    expect(new Set(SNAPSHOTS.map(([kind]) => kind))).toEqual(new Set(EMAIL_KINDS));
    for (const [kind, data] of SNAPSHOTS) expect(emailSubject(kind, data, ctx)).toBe(composeEmail(kind, data, ctx).subject);
    expect(emailSubject('appointment', appointment('lead', 'updated'), ctx)).toBe(
      'Updated: your Zoom call with Keystone Due Diligence, Mon, Dec 2, 2:30 PM',
    );
    expect(emailSubject('appointment', appointment('staff', 'updated'), ctx)).toBe('Moved: Zoom with Jane Doe, Mon, Dec 2, 2:30 PM');
  });

  it('is a placeholder for a snapshot that does not fit, where composing fails', () => {
    for (const kind of ['new-lead', 'lead-acknowledgement', 'appointment', 'appointment-reminder', 'lead-message'] as const) {
      expect(() => composeEmail(kind, { nope: true }, ctx)).toThrow();
      expect(emailSubject(kind, { nope: true }, ctx)).toBe(`(${kind})`);
    }
  });
});

describe('a message staff wrote to a lead', () => {
  const data = {
    subject: 'Your report',
    body: 'Hi Jane,\r\n<b>see</b> https://example.com/a?b=1&c=2.\nDana',
    writer: 'Dana Whitfield',
    reply_to: 'replies+abc@firm.com',
  };

  it('is their words as typed, with links made clickable and everything else escaped, under the writer’s name', () => {
    const mail = composeEmail('lead-message', data, ctx);
    expect(mail.subject).toBe('Your report');
    expect(mail.text).toBe('Hi Jane,\n<b>see</b> https://example.com/a?b=1&c=2.\nDana\n');
    expect(mail.html).toContain(
      '&lt;b&gt;see&lt;/b&gt; <a href="https://example.com/a?b=1&amp;c=2" style="color:#1d4ed8">https://example.com/a?b=1&amp;c=2</a>.',
    );
    expect(mail.fromName).toBe('Dana Whitfield at Keystone Due Diligence');
    expect(mail.replyTo).toEqual({ name: 'Dana Whitfield at Keystone Due Diligence', address: 'replies+abc@firm.com' });
  });

  it('adds the writer’s signature under "-- ", in both parts', () => {
    const mail = composeEmail('lead-message', { ...data, body: 'Hi\n\n', signature: 'Dana <b>W</b>\r\nhttps://firm.com\n' }, ctx);
    expect(mail.text).toBe('Hi\n\n-- \nDana <b>W</b>\nhttps://firm.com\n');
    expect(mail.html).toContain(
      'Hi\n\n-- \nDana &lt;b&gt;W&lt;/b&gt;\n<a href="https://firm.com" style="color:#1d4ed8">https://firm.com</a>',
    );
  });

  it('keeps the subject to one line, and has no reply address of its own without one', () => {
    const mail = composeEmail('lead-message', { ...data, subject: 'A\r\nBcc: x@evil.test', reply_to: null }, ctx);
    expect(mail.subject).toBe('A Bcc: x@evil.test');
    expect(mail.replyTo).toBeUndefined();
  });
});

describe('the property type in lead mail', () => {
  it('reads as its one label ("Single family"), in the new-lead table and the acknowledgement', () => {
    const single = { ...lead, property_types: ['single-family'] };
    expect(composeEmail('new-lead', single, ctx).text).toMatch(/Property type:?\s+Single family/);
    expect(composeEmail('lead-acknowledgement', single, ctx).text).toContain('about your single family deal');
  });
});

describe('the security mail after a password change', () => {
  it('says how it changed, and names the API keys that still work with the page that revokes them', () => {
    const mail = composeEmail(
      'password-changed',
      {
        how: 'admin_command',
        keys: [
          { name: 'Partner <form>', prefix: 'crm_abcd1234' },
          { name: 'Zap', prefix: 'crm_zzzz9999' },
        ],
      },
      ctx,
    );
    expect(mail.subject).toBe("Your password for Keystone Due Diligence's CRM was changed");
    expect(mail.text).toContain('was changed by an administrator on the server (npm run admin -- reset-password)');
    expect(mail.text).toContain('Your 2 API keys still work');
    expect(mail.text).toContain('Partner <form> (crm_abcd1234…)');
    expect(mail.text).toContain('https://crm.keystone.example/dashboard/settings/integrations');
    // A name is text in the HTML part, never markup.
    expect(mail.html).toContain('Partner &lt;form&gt;');
    expect(mail.html).not.toContain('<form>');
  });

  it('says nothing of keys when there are none', () => {
    const mail = composeEmail('password-changed', { how: 'account', keys: [] }, ctx);
    expect(mail.text).toContain('was changed on your account page');
    expect(mail.text).not.toContain('API key');
  });
});
