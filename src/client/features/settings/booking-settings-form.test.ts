import { describe, expect, it } from 'vitest';
import { bookingSettingsSchema, DEFAULT_BOOKING_SETTINGS } from '#shared/schemas/booking';
import { fieldErrors } from '#shared/schemas/error';
import { checkBookingForm, checkDayOff, toFormValues, type BookingFormErrors, type BookingFormValues } from './booking-settings-form.ts';

const valid = (): BookingFormValues => toFormValues(DEFAULT_BOOKING_SETTINGS);

/** The browser's messages keyed as the server keys them (a weekday's times under `hours`). */
function topLevel(errors: BookingFormErrors): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) fields[key.split('.')[0]!] ??= message!;
  return fields;
}

/** What the server would answer for the same input, with the numbers as the browser reads them. */
function serverAnswer(values: BookingFormValues): Record<string, string> {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const parsed = bookingSettingsSchema.safeParse({
    enabled: values.enabled,
    hours: values.hours.map((d) => (d.open ? { start: d.start, end: d.end } : null)),
    slot_minutes: number(values.slot_minutes),
    buffer_minutes: number(values.buffer_minutes),
    min_notice_hours: number(values.min_notice_hours),
    horizon_days: number(values.horizon_days),
    types: values.types,
    days_off: values.days_off,
    require_email_confirmation: values.require_email_confirmation,
    website_hosts: values.website_hosts,
    website_host_ids: values.website_host_ids,
    visitors_choose_host: values.visitors_choose_host,
    jitsi_links: values.jitsi_links,
  });
  return parsed.success ? {} : fieldErrors(parsed.error);
}

const withDay = (day: number, hours: Partial<BookingFormValues['hours'][number]>): BookingFormValues => {
  const v = valid();
  v.hours[day] = { ...v.hours[day]!, ...hours };
  return v;
};

const CASES: [string, BookingFormValues][] = [
  ['the defaults', valid()],
  ['closing before opening', withDay(2, { start: '17:00', end: '09:00' })],
  ['closing at opening', withDay(0, { start: '09:00', end: '09:00' })],
  ['an empty opening time', withDay(1, { start: '' })],
  ['an empty closing time', withDay(1, { end: '' })],
  ['bad times on a closed day', withDay(5, { open: false, start: '', end: '' })],
  ['a Sunday open late', withDay(6, { open: true, start: '18:00', end: '23:59' })],
  ['no type', { ...valid(), types: [] }],
  ['nobody chosen to take website calls', { ...valid(), website_hosts: 'chosen', website_host_ids: [] }],
  ['Zoom only', { ...valid(), types: ['Zoom'] }],
  ['no slot length', { ...valid(), slot_minutes: '' }],
  ['a slot of 9 minutes', { ...valid(), slot_minutes: '9' }],
  ['a slot of 10 minutes', { ...valid(), slot_minutes: '10' }],
  ['a slot of 240 minutes', { ...valid(), slot_minutes: '240' }],
  ['a slot of 241 minutes', { ...valid(), slot_minutes: '241' }],
  ['a slot of 12.5 minutes', { ...valid(), slot_minutes: '12.5' }],
  ['a negative buffer', { ...valid(), buffer_minutes: '-1' }],
  ['a buffer of -0.5', { ...valid(), buffer_minutes: '-0.5' }],
  ['a buffer of 241', { ...valid(), buffer_minutes: '241' }],
  ['no notice', { ...valid(), min_notice_hours: '0' }],
  ['a notice of 721 hours', { ...valid(), min_notice_hours: '721' }],
  ['a window of 0 days', { ...valid(), horizon_days: '0' }],
  ['a window of 366 days', { ...valid(), horizon_days: '366' }],
  ['an empty window', { ...valid(), horizon_days: ' ' }],
  ['days off', { ...valid(), days_off: ['2026-12-25', '2027-01-01'] }],
  ['an impossible day off', { ...valid(), days_off: ['2026-02-30'] }],
  ['the same day off twice', { ...valid(), days_off: ['2026-12-25', '2026-12-25'] }],
  [
    '367 days off',
    { ...valid(), days_off: Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10)) },
  ],
  [
    'everything wrong at once',
    {
      ...withDay(3, { start: '12:00', end: '11:00' }),
      slot_minutes: '1',
      buffer_minutes: '',
      min_notice_hours: '1.5',
      horizon_days: '999',
      types: [],
    },
  ],
];

describe('checkBookingForm', () => {
  it.each(CASES)("gives the server schema's messages for %s", (_, values) => {
    const checked = checkBookingForm(values);
    expect(checked.errors ? topLevel(checked.errors) : {}).toEqual(serverAnswer(values));
    if (checked.settings) expect(bookingSettingsSchema.parse(checked.settings)).toEqual(checked.settings);
  });

  it("puts a weekday's message on the time that is wrong", () => {
    expect(checkBookingForm(withDay(2, { start: '17:00', end: '09:00' })).errors).toEqual({
      'hours.2.end': 'Closing time must be after opening time',
    });
    expect(checkBookingForm(withDay(4, { start: '' })).errors).toEqual({ 'hours.4.start': 'Invalid time' });
  });

  it('sends closed days as null and keeps their times in the form', () => {
    const values = withDay(0, { open: false, start: '08:00', end: '12:00' });
    expect(checkBookingForm(values).settings?.hours[0]).toBeNull();
    expect(toFormValues({ ...DEFAULT_BOOKING_SETTINGS, hours: [null, null, null, null, null, null, null] }).hours[0]).toEqual({
      open: false,
      start: '09:00',
      end: '17:00',
    });
  });
});

describe('checkDayOff', () => {
  it('takes a real date once', () => {
    expect(checkDayOff('2026-12-25', [])).toBeUndefined();
    expect(checkDayOff('2026-12-25', ['2026-12-25'])).toBe('Each day off once');
    expect(checkDayOff('2026-02-30', [])).toBe('Invalid date');
    expect(
      checkDayOff(
        '2027-01-01',
        Array.from({ length: 366 }, (_, i) => `day-${i}`),
      ),
    ).toBe('At most 366 days off');
  });
});
