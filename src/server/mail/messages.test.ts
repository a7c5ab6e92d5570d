import { describe, expect, it } from 'vitest';
import { EMAIL_KINDS, type EmailKind } from '../db/queries/emails.ts';
import { composeEmail, emailSubject, type MailContext } from './messages.ts';

const ctx: MailContext = {
  site: { name: 'Keystone Due Diligence', email: 'hello@keystone.example', phone: '(301) 555-0100', address: 'Frederick, MD' },
  publicUrl: 'https://crm.keystone.example',
  from: { name: 'Keystone', address: 'hello@keystone.example' },
  domain: 'keystone.example',
  transport: 'no mail server (email is off)',
};
const lead = {
  lead_id: 'lead-1', full_name: 'Jane Doe', email: 'jane@example.com', phone: '555', property_types: ['land'], message: null,
  source: null, utm_source: null, utm_medium: null, utm_campaign: null, landing_page: null,
};
const appointment = (audience: 'lead' | 'staff', change: 'scheduled' | 'updated' | 'cancelled') => ({
  appointment_id: 'appt-1', change, audience, type: 'Zoom', date: '2030-12-02', time: '14:30', time_zone: 'America/New_York',
  starts_at: '2030-12-02T19:30:00.000Z', sequence: 0, notes: null, lead_id: 'lead-1', lead_name: 'Jane Doe', lead_email: 'jane@example.com', lead_phone: '555',
});
const SNAPSHOTS: [EmailKind, unknown][] = [
  ['new-lead', lead],
  ['lead-acknowledgement', lead],
  ...(['lead', 'staff'] as const).flatMap((audience) => (['scheduled', 'updated', 'cancelled'] as const).map((change): [EmailKind, unknown] => ['appointment', appointment(audience, change)])),
  ['appointment-reminder', { appointment_id: 'appt-1', type: 'Call', time_zone: 'America/New_York', starts_at: '2030-12-02T19:30:00.000Z', lead_name: 'Jane Doe' }],
  ['test', {}],
  ['invite', { link: 'https://crm.example.com/invite/abc', role: 'staff', invited_by: 'olive@example.com', expires_hours: 72 }],
  ['password-reset', { link: 'https://crm.example.com/reset-password/abc', expires_minutes: 30 }],
];

describe('the invitation', () => {
  it('names who invited, the role and the link, which works once for 72 hours', () => {
    const mail = composeEmail('invite', { link: 'https://crm.example.com/invite/abc', role: 'staff', invited_by: 'olive@example.com', expires_hours: 72 }, ctx);
    expect(mail.text).toContain('olive@example.com invited you to join');
    expect(mail.text).toContain('as a member of staff');
    expect(mail.text).toContain('Accept the invitation and choose a password: https://crm.example.com/invite/abc');
    expect(mail.text).toContain('for 72 hours');
    expect(mail.html).toContain('href="https://crm.example.com/invite/abc"');
    // A message whose link was removed (sent already) cannot be composed again.
    expect(() => composeEmail('invite', { role: 'staff', invited_by: null, expires_hours: 72 }, ctx)).toThrow();
  });
});

describe('emailSubject', () => {
  it('is the subject the outbox composes, for every kind', () => {
    expect(new Set(SNAPSHOTS.map(([kind]) => kind))).toEqual(new Set(EMAIL_KINDS));
    for (const [kind, data] of SNAPSHOTS) expect(emailSubject(kind, data, ctx)).toBe(composeEmail(kind, data, ctx).subject);
    expect(emailSubject('appointment', appointment('lead', 'updated'), ctx)).toBe('Updated: your Zoom call with Keystone Due Diligence, Mon, Dec 2, 2:30 PM');
    expect(emailSubject('appointment', appointment('staff', 'updated'), ctx)).toBe('Moved: Zoom with Jane Doe, Mon, Dec 2, 2:30 PM');
  });

  it('is a placeholder for a snapshot that does not fit, where composing fails', () => {
    for (const kind of ['new-lead', 'lead-acknowledgement', 'appointment', 'appointment-reminder'] as const) {
      expect(() => composeEmail(kind, { nope: true }, ctx)).toThrow();
      expect(emailSubject(kind, { nope: true }, ctx)).toBe(`(${kind})`);
    }
  });
});
