import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANALYTICS_MAX_RANGE_DAYS, APPOINTMENT_TYPES, PROPERTY_TYPES } from '../constants.ts';
import { checkAppointmentForm } from './appointment-checks.ts';
import { checkDateRange } from './calendar.ts';
import { profileRequestSchema } from '../schemas/account.ts';
import { analyticsRangeQuerySchema } from '../schemas/analytics-report.ts';
import { createAppointmentRequestSchema } from '../schemas/appointment.ts';
import { loginRequestSchema } from '../schemas/auth.ts';
import { fieldErrors } from '../schemas/error.ts';
import { leadFieldsSchema } from '../schemas/lead.ts';
import { checkLeadFields } from './lead-fields.ts';
import { checkLogin } from './login.ts';
import { checkText } from './text-checks.ts';
import { WEBSITE_RULES } from './website-checks.ts';
import { zodText } from '../schemas/text.ts';
import { checkProfile, defaultDisplayName } from './profile.ts';

/**
 * The browser checks forms with the small checkers of rules/; the server with the zod schemas
 * built from the same rules. For anything a form can send (text, or nothing, in each field),
 * both must agree: the same verdict, the same cleaned values, the same first message per field.
 */

const around = (n: number) => fc.constantFrom(n - 1, n, n + 1).map((length) => 'x'.repeat(length));
const formText = fc.oneof(
  fc.constantFrom('', ' ', '  \t ', 'Jane Doe', ' Jane ', 'a\u0000b', '\u0000', 'Zoë 李雷 🏠', '\u00a0x\u00a0', '\ufeffx', '\u2028'),
  fc.constantFrom('jane@example.com', ' JANE@Example.COM ', 'jane@example', 'jane@@example.com', 'a@b.co', 'x@y.z', 'j\u0000@example.com'),
  fc.constantFrom(
    '(301) 555-0100',
    '+1 301 555 0100',
    '555',
    '555-0100',
    '+1 (443) 555-0142-9999999',
    '301.555.0100',
    '1-800-DILIGENCE',
    '+',
    '++13015550100',
    ' +44 20 7946 0958 ',
  ),
  around(40),
  around(200),
  around(254),
  around(80),
  around(5000),
  fc.constantFrom('a'.repeat(250) + '@b.co', `${'a'.repeat(245)}@example.com`),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  // Lone surrogates (and a NUL with one, and one past a limit): refused by both, with the same message.
  fc.constantFrom(
    'x\ud800',
    '\udbff',
    '\udc00x',
    '\udfff\ud800',
    ' Jane \ud83d',
    'a\u0000\ud800',
    'jane\ud800@example.com',
    'x'.repeat(300) + '\udc00',
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const propertyTypes = maybe(fc.array(fc.constantFrom(...PROPERTY_TYPES, 'castle', '', 'Land', 'single family'), { maxLength: 3 }));

const leadInput = fc.record(
  {
    full_name: maybe(formText),
    email: maybe(formText),
    phone: maybe(formText),
    property_types: propertyTypes,
    message: fc.oneof(maybe(formText), fc.constant(null)),
  },
  { requiredKeys: [] },
);

type Schema = {
  safeParse: (input: unknown) => { success: true; data: unknown } | { success: false; error: Parameters<typeof fieldErrors>[0] };
};
const serverVerdict = (schema: Schema, input: unknown) => {
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, errors: fieldErrors(parsed.error) };
};

describe('the browser checkers and the server schemas', () => {
  it('agree on every lead form input', () => {
    fc.assert(
      fc.property(leadInput, (input) => {
        expect(checkLeadFields(input)).toEqual(serverVerdict(leadFieldsSchema, input));
      }),
      { numRuns: 3000 },
    );
  });

  it('agree on every sign-in form input', () => {
    const password = fc.oneof(formText, around(8), around(1024));
    fc.assert(
      fc.property(fc.record({ email: maybe(formText), password: maybe(password) }, { requiredKeys: [] }), (input) => {
        expect(checkLogin(input)).toEqual(serverVerdict(loginRequestSchema, input));
      }),
      { numRuns: 3000 },
    );
  });

  it('agree on every name and phone a person gives (account page, first run, invitation)', () => {
    fc.assert(
      fc.property(
        fc.record({ display_name: maybe(formText), phone: fc.oneof(maybe(formText), fc.constant(null)) }, { requiredKeys: [] }),
        (input) => {
          expect(checkProfile(input)).toEqual(serverVerdict(profileRequestSchema, input));
        },
      ),
      { numRuns: 3000 },
    );
  });

  // Days and times as a date input, a URL or a person types them: real, impossible, half-typed, padded.
  const dayText = fc.oneof(
    fc.constantFrom(
      '2026-03-08',
      '2026-02-30',
      '2024-02-29',
      '1899-12-31',
      '2200-12-31',
      ' 2026-11-01 ',
      '2026-1-5',
      '',
      ' ',
      '2026-11-01\u0000',
    ),
    fc.date({ min: new Date('1890-01-01'), max: new Date('2210-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    formText,
  );
  const timeText = fc.oneof(fc.constantFrom('09:30', '23:59', '24:00', '9:30', ' 10:00 ', '', '12:60'), formText);
  const uuidText = fc.oneof(
    fc.uuid({ version: [1, 4, 7] }),
    fc.constantFrom('', ' ', '00000000-0000-0000-0000-000000000000', 'not-a-lead'),
    formText,
  );
  const minutes = fc.oneof(
    fc.integer({ min: -10, max: 600 }),
    fc.constantFrom(0, 4, 5, 480, 481, 30.5, Number.NaN, Number.POSITIVE_INFINITY, -0, 1e20, Number.MAX_SAFE_INTEGER + 2),
    fc.double(),
  );

  it('agree on every Schedule Appointment form input', () => {
    const input = fc.record(
      {
        lead_id: maybe(uuidText),
        date: maybe(dayText),
        time: maybe(timeText),
        type: maybe(fc.oneof(fc.constantFrom(...APPOINTMENT_TYPES, '', 'call', 'Coffee'), formText)),
        notes: fc.oneof(maybe(formText), fc.constant(null), around(5000)),
        duration_minutes: maybe(minutes),
        location: fc.oneof(maybe(formText), fc.constant(null), around(200)),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(input, (values) => {
        expect(checkAppointmentForm(values)).toEqual(serverVerdict(createAppointmentRequestSchema, values));
      }),
      { numRuns: 3000 },
    );
  });

  it('agree on every custom range of days (the Analytics period picker and its URL)', () => {
    const edge = fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).chain((start) =>
      fc.integer({ min: -3, max: ANALYTICS_MAX_RANGE_DAYS + 2 }).map((days) => ({
        from: start.toISOString().slice(0, 10),
        to: new Date(start.getTime() + (days - 1) * 86_400_000).toISOString().slice(0, 10),
      })),
    );
    const input = fc.oneof(fc.record({ from: maybe(dayText), to: maybe(dayText) }, { requiredKeys: [] }), edge);
    fc.assert(
      fc.property(input, (range) => {
        const server = serverVerdict(analyticsRangeQuerySchema, range);
        const browser = checkDateRange(range, ANALYTICS_MAX_RANGE_DAYS);
        // The schema keeps every key it knows (days and period, absent here); the checker only the two days.
        expect(browser).toEqual(server.ok ? { ok: true, value: { from: range.from?.trim(), to: range.to?.trim() } } : server);
        if (server.ok) expect(server.value).toMatchObject(browser.ok ? browser.value : {});
      }),
      { numRuns: 3000 },
    );
  });

  it('name an account made without a name by its email’s part before the @, at most 80 characters', () => {
    expect(defaultDisplayName('jo.smith@firm.com')).toBe('jo.smith');
    expect(defaultDisplayName(`${'🏠'.repeat(90)}@firm.com`)).toBe('🏠'.repeat(80));
    expect(checkProfile({ display_name: defaultDisplayName(`${'a'.repeat(200)}@firm.com`) }).ok).toBe(true);
  });

  it('give the product messages for the classic mistakes', () => {
    expect(checkLeadFields({ full_name: ' ', email: 'nope', phone: '', property_types: [] })).toEqual({
      ok: false,
      errors: {
        full_name: 'Name is required',
        email: 'Invalid email address',
        phone: 'Phone number is required',
        property_types: 'Property type is required',
      },
    });
    expect(checkLogin({ email: '', password: 'short' })).toEqual({
      ok: false,
      errors: { email: 'Email is required', password: 'Password must be at least 8 characters' },
    });
  });

  it('agree on every input to each of Settings → Website’s fields', () => {
    for (const [name, rule] of Object.entries(WEBSITE_RULES)) {
      const schema = zodText(rule);
      fc.assert(
        fc.property(fc.oneof(formText, around(rule.max.length)), (text) => {
          const parsed = schema.safeParse(text);
          const server = parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: parsed.error.issues[0]!.message };
          expect(checkText(text, rule), name).toEqual(server);
        }),
        { numRuns: 500 },
      );
    }
  });

  it('take a phone the website can link to, and refuse one it cannot', () => {
    for (const phone of ['(301) 555-0100', '+1 301 555 0100', '301.555.0100', '555-0100', '+44 20 7946 0958'])
      expect(checkText(phone, WEBSITE_RULES.phone)).toEqual({ ok: true, value: phone });
    for (const phone of [
      '555 01',
      '1-800-DILIGENCE',
      '+1 (443) 555-0142-9999999',
      '301 555 0100 ext 4',
      '++13015550100',
      '(301) 555-0100 +',
    ]) {
      expect(checkText(phone, WEBSITE_RULES.phone)).toEqual({
        ok: false,
        error: 'Invalid phone number: use 7 to 15 digits, like (301) 555-0100',
      });
    }
    expect(checkText('desk@firm', WEBSITE_RULES.email)).toEqual({ ok: false, error: 'Invalid email address' });
    expect(checkText(' ', WEBSITE_RULES.siteName)).toEqual({ ok: false, error: 'Brand name is required' });
  });
});
