import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { analyticsEventRequestSchema } from './analytics.ts';
import { appointmentListQuerySchema, createAppointmentRequestSchema, updateAppointmentRequestSchema } from './appointment.ts';
import { loginRequestSchema } from './auth.ts';
import {
  availabilityQuerySchema,
  bookingSettingsSchema,
  bookingTokenParamSchema,
  createBookingRequestSchema,
  DEFAULT_BOOKING_SETTINGS,
} from './booking.ts';
import { leadListQuerySchema, publicLeadRequestSchema, updateLeadRequestSchema } from './lead.ts';
import { NUL_MESSAGE, storableText, UNSTORABLE_MESSAGE } from './text.ts';

describe('storableText', () => {
  it.each(['x\ud800', '\udbff', '\udc00x', '\udfff\ud800', 'end\ud83d'])('refuses the lone surrogate in %j', (text) => {
    expect(storableText().safeParse(text).error?.issues[0]?.message).toBe(UNSTORABLE_MESSAGE);
  });

  it('keeps the NUL message, and takes well-formed text of any script', () => {
    expect(storableText().safeParse('a\u0000b').error?.issues[0]?.message).toBe(NUL_MESSAGE);
    for (const text of ['', 'Zoë 李雷 محمد', '🏠🏚️👨‍👩‍👧', '\ufffd', '\u202eevil'])
      expect(storableText().safeParse(text).success).toBe(true);
  });
});

const TOKEN = 'A'.repeat(43);
const UUID = '00000000-0000-4000-8000-000000000000';
const lead = {
  full_name: 'Jane',
  email: 'jane@example.com',
  phone: '555',
  property_types: ['land'],
  submission_id: UUID,
  message: 'Hi',
  website: '',
  analytics_session_id: 'AbCdEfGhIjKlMnOpQrStUv',
};

/** Every request schema, a valid request, and the text fields in it (a path into the request). */
const REQUESTS: [string, z.ZodType, Record<string, unknown>, (string | number)[][]][] = [
  [
    'event',
    analyticsEventRequestSchema,
    {
      session_id: 'AbCdEfGhIjKlMnOpQrStUv',
      event_type: 'pageview',
      page_path: '/',
      referrer: 'r',
      utm_source: 's',
      utm_medium: 'm',
      utm_campaign: 'c',
    },
    [['session_id'], ['page_path'], ['referrer'], ['utm_source'], ['utm_medium'], ['utm_campaign']],
  ],
  ['public lead', publicLeadRequestSchema, lead, [['full_name'], ['email'], ['phone'], ['message'], ['website'], ['analytics_session_id']]],
  ['lead update', updateLeadRequestSchema, { full_name: 'Jane' }, [['full_name']]],
  ['lead list', leadListQuerySchema, { search: 'x' }, [['search']]],
  ['login', loginRequestSchema, { email: 'a@b.co', password: 'long enough' }, [['email'], ['password']]],
  [
    'appointment',
    createAppointmentRequestSchema,
    { lead_id: UUID, date: '2030-01-02', time: '09:00', type: 'Call', notes: 'n', location: 'l' },
    [['lead_id'], ['date'], ['time'], ['notes'], ['location']],
  ],
  ['appointment update', updateAppointmentRequestSchema, { notes: 'n' }, [['notes']]],
  ['appointment list', appointmentListQuerySchema, { from: '2030-01-01', to: '2030-01-02' }, [['from'], ['to']]],
  [
    'booking settings',
    bookingSettingsSchema,
    { ...DEFAULT_BOOKING_SETTINGS, days_off: ['2030-01-01'] },
    [
      ['hours', 0, 'start'],
      ['hours', 0, 'end'],
      ['days_off', 0],
    ],
  ],
  ['availability', availabilityQuerySchema, { from: '2030-01-01', to: '2030-01-02' }, [['from'], ['to']]],
  [
    'booking',
    createBookingRequestSchema,
    { booking_token: TOKEN, start: '2030-01-02T09:00:00Z', type: 'Call' },
    [['booking_token'], ['start']],
  ],
  ['booking link', bookingTokenParamSchema, { token: TOKEN }, [['token']]],
];

function withText(value: unknown, path: (string | number)[], text: string): unknown {
  if (path.length === 0) return text;
  const [key, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[key!] = withText(copy[key!], rest, text);
  return copy;
}

describe('every text field of every request schema', () => {
  it.each(REQUESTS)('%s: valid as given, and each text field refuses a lone surrogate as unstorable', (_name, schema, valid, fields) => {
    expect(schema.safeParse(valid).error?.issues).toBeUndefined();
    for (const field of fields) {
      const issues = schema.safeParse(withText(valid, field, `x\ud800`)).error?.issues ?? [];
      expect(issues.find((i) => i.path.join('.') === field.join('.'))?.message, field.join('.')).toBe(UNSTORABLE_MESSAGE);
    }
  });
});
