import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zonedInstant } from '#shared/zoned-time';
import type { Busy } from '../lib/busy-times.ts';
import { busyFromIcs, IcsError } from './ics-busy.ts';

const CHICAGO = 'America/Chicago';
const NY = 'America/New_York';
/** All of 2026 in UTC: wide enough for the rules under test, narrow enough to clip nothing they make. */
const YEAR_2026 = { start: Date.UTC(2026, 0, 1), end: Date.UTC(2027, 0, 1) };

const calendar = (...components: string[][]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//ics-busy//EN', ...components.flat(), 'END:VCALENDAR'].join('\r\n');
const event = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'];
const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);
/** Busy intervals as readable UTC texts. */
const texts = (busy: Busy[]) => busy.map((b) => `${new Date(b.start).toISOString()} → ${new Date(b.end).toISOString()}`);
const busyOf = (text: string, window = YEAR_2026, defaultTimeZone = CHICAGO) => busyFromIcs(text, window, { defaultTimeZone });

/** Outlook writes its own zone names, defined in the file and repeating from 1601. */
const OUTLOOK_EASTERN = [
  'BEGIN:VTIMEZONE',
  'TZID:Eastern Standard Time',
  'BEGIN:STANDARD',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=1SU;BYMONTH=11',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=2SU;BYMONTH=3',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

describe('busyFromIcs: repeating events on the wall clock', () => {
  /** Mondays at 09:00 in New York from 2 March to 9 November 2026: UTC-5 until 8 March, UTC-4 until 1 November, then UTC-5 again. */
  const mondaysAtNine = (() => {
    const out: string[] = [];
    for (let day = utc(2026, 3, 2); day <= utc(2026, 11, 9); day += 7 * 86_400_000) {
      const summer = day >= utc(2026, 3, 8) && day < utc(2026, 11, 1);
      const start = day + (summer ? 13 : 14) * 3_600_000;
      out.push(`${new Date(start).toISOString()} → ${new Date(start + 3_600_000).toISOString()}`);
    }
    return out;
  })();

  it('keeps a weekly 09:00 meeting in New York at 09:00 across both 2026 clock changes', () => {
    const text = calendar(
      event(
        'UID:weekly',
        'DTSTART;TZID=America/New_York:20260302T090000',
        'DTEND;TZID=America/New_York:20260302T100000',
        'RRULE:FREQ=WEEKLY;UNTIL=20261109T140000Z',
      ),
    );
    const { busy, warnings } = busyOf(text);
    expect(warnings).toEqual([]);
    expect(texts(busy)).toEqual(mondaysAtNine);
    expect(busy).toHaveLength(37);
    // Either side of each change, spelled out.
    expect(texts(busy)).toEqual(
      expect.arrayContaining([
        '2026-03-02T14:00:00.000Z → 2026-03-02T15:00:00.000Z',
        '2026-03-09T13:00:00.000Z → 2026-03-09T14:00:00.000Z',
        '2026-10-26T13:00:00.000Z → 2026-10-26T14:00:00.000Z',
        '2026-11-02T14:00:00.000Z → 2026-11-02T15:00:00.000Z',
      ]),
    );
  });

  it('reads the same meeting from the zone Outlook defines in the file', () => {
    const text = calendar(
      OUTLOOK_EASTERN,
      event(
        'UID:outlook',
        'DTSTART;TZID=Eastern Standard Time:20260302T090000',
        'DTEND;TZID=Eastern Standard Time:20260302T100000',
        'RRULE:FREQ=WEEKLY;COUNT=37',
      ),
    );
    const { busy, warnings } = busyOf(text);
    expect(warnings).toEqual([]);
    expect(texts(busy)).toEqual(mondaysAtNine);
  });

  it('reads a zone only the file defines from its definition, and an IANA name from the runtime’s database', () => {
    const kolkataLike = [
      'BEGIN:VTIMEZONE',
      'TZID:Firm Local',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:+0530',
      'TZOFFSETTO:+0530',
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    // A definition that contradicts the IANA zone of its name loses to the database (some exporters' cover only a few years).
    const wrongNewYork = [
      'BEGIN:VTIMEZONE',
      'TZID:America/New_York',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0100',
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const text = calendar(
      kolkataLike,
      wrongNewYork,
      event('UID:a', 'DTSTART;TZID=Firm Local:20260610T090000', 'DURATION:PT1H'),
      event('UID:b', 'DTSTART;TZID=America/New_York:20260611T090000', 'DURATION:PT1H'),
    );
    expect(texts(busyOf(text).busy)).toEqual([
      '2026-06-10T03:30:00.000Z → 2026-06-10T04:30:00.000Z',
      '2026-06-11T13:00:00.000Z → 2026-06-11T14:00:00.000Z',
    ]);
    // To Intl "EST" is UTC-5 all year; a file that defines it with summer time means its own.
    const est = OUTLOOK_EASTERN.map((l) => l.replace('Eastern Standard Time', 'EST'));
    const june = event('UID:c', 'DTSTART;TZID=EST:20260612T090000', 'DURATION:PT1H');
    expect(texts(busyOf(calendar(est, june)).busy)).toEqual(['2026-06-12T13:00:00.000Z → 2026-06-12T14:00:00.000Z']);
    expect(texts(busyOf(calendar(june)).busy)).toEqual(['2026-06-12T14:00:00.000Z → 2026-06-12T15:00:00.000Z']);
  });

  it('removes exactly the instance an EXDATE names', () => {
    const text = calendar(
      event(
        'UID:x',
        'DTSTART;TZID=America/New_York:20260601T090000',
        'DTEND;TZID=America/New_York:20260601T093000',
        'RRULE:FREQ=DAILY;COUNT=5',
        'EXDATE;TZID=America/New_York:20260603T090000',
      ),
    );
    expect(texts(busyOf(text).busy)).toEqual([
      '2026-06-01T13:00:00.000Z → 2026-06-01T13:30:00.000Z',
      '2026-06-02T13:00:00.000Z → 2026-06-02T13:30:00.000Z',
      '2026-06-04T13:00:00.000Z → 2026-06-04T13:30:00.000Z',
      '2026-06-05T13:00:00.000Z → 2026-06-05T13:30:00.000Z',
    ]);
  });

  it('matches an EXDATE written in UTC to the instance at that instant', () => {
    const text = calendar(
      event('UID:x', 'DTSTART;TZID=Europe/London:20260601T090000', 'DURATION:PT1H', 'RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20260602T080000Z'),
    );
    expect(texts(busyOf(text).busy)).toEqual([
      '2026-06-01T08:00:00.000Z → 2026-06-01T09:00:00.000Z',
      '2026-06-03T08:00:00.000Z → 2026-06-03T09:00:00.000Z',
    ]);
  });

  const series = (...more: string[]) =>
    event(
      'UID:standup@example.com',
      'DTSTART;TZID=America/New_York:20260601T090000',
      'DTEND;TZID=America/New_York:20260601T091500',
      'RRULE:FREQ=DAILY;COUNT=3',
      ...more,
    );
  const change = (...lines: string[]) => event('UID:standup@example.com', 'RECURRENCE-ID;TZID=America/New_York:20260602T090000', ...lines);

  it('moves an instance changed on its own to its new time', () => {
    const text = calendar(series(), change('DTSTART;TZID=America/New_York:20260602T140000', 'DTEND;TZID=America/New_York:20260602T150000'));
    expect(texts(busyOf(text).busy)).toEqual([
      '2026-06-01T13:00:00.000Z → 2026-06-01T13:15:00.000Z',
      '2026-06-02T18:00:00.000Z → 2026-06-02T19:00:00.000Z',
      '2026-06-03T13:00:00.000Z → 2026-06-03T13:15:00.000Z',
    ]);
  });

  it('drops an instance cancelled or made free on its own, and keeps the length of its series when a change gives none', () => {
    const free = calendar(
      series(),
      change('DTSTART;TZID=America/New_York:20260602T090000', 'DTEND;TZID=America/New_York:20260602T091500', 'TRANSP:TRANSPARENT'),
    );
    const cancelled = calendar(change('DTSTART;TZID=America/New_York:20260602T090000', 'STATUS:CANCELLED'), series());
    const expected = ['2026-06-01T13:00:00.000Z → 2026-06-01T13:15:00.000Z', '2026-06-03T13:00:00.000Z → 2026-06-03T13:15:00.000Z'];
    expect(texts(busyOf(free).busy)).toEqual(expected);
    expect(texts(busyOf(cancelled).busy)).toEqual(expected);
    const later = calendar(series(), change('DTSTART;TZID=America/New_York:20260602T100000'));
    expect(texts(busyOf(later).busy)[1]).toBe('2026-06-02T14:00:00.000Z → 2026-06-02T14:15:00.000Z');
  });

  it('moves an instance into the window from outside it, and out of it from inside', () => {
    const window = { start: utc(2026, 6, 2), end: utc(2026, 6, 3) };
    const intoWindow = calendar(
      series(),
      event(
        'UID:standup@example.com',
        'RECURRENCE-ID;TZID=America/New_York:20260603T090000',
        'DTSTART;TZID=America/New_York:20260602T160000',
        'DURATION:PT30M',
      ),
    );
    expect(texts(busyOf(intoWindow, window).busy)).toEqual([
      '2026-06-02T13:00:00.000Z → 2026-06-02T13:15:00.000Z',
      '2026-06-02T20:00:00.000Z → 2026-06-02T20:30:00.000Z',
    ]);
    const outOfWindow = calendar(series(), change('DTSTART;TZID=America/New_York:20260610T090000', 'DURATION:PT30M'));
    expect(busyOf(outOfWindow, window).busy).toEqual([]);
  });

  it('adds RDATE instances and lets an EXDATE remove them', () => {
    const text = calendar(
      event(
        'UID:r',
        'DTSTART:20260601T120000Z',
        'DURATION:PT1H',
        'RDATE:20260605T120000Z,20260606T120000Z',
        'RDATE;VALUE=PERIOD:20260607T150000Z/PT2H',
        'EXDATE:20260606T120000Z',
      ),
    );
    expect(texts(busyOf(text).busy)).toEqual([
      '2026-06-01T12:00:00.000Z → 2026-06-01T13:00:00.000Z',
      '2026-06-05T12:00:00.000Z → 2026-06-05T13:00:00.000Z',
      '2026-06-07T15:00:00.000Z → 2026-06-07T17:00:00.000Z',
    ]);
  });

  it('reads a wall time the clocks skip an hour later, and one they repeat as its first occurrence', () => {
    const text = calendar(
      event('UID:gap', 'DTSTART;TZID=America/New_York:20260307T023000', 'DURATION:PT15M', 'RRULE:FREQ=DAILY;COUNT=3'),
      event('UID:twice', 'DTSTART;TZID=America/New_York:20261101T013000', 'DURATION:PT15M'),
    );
    expect(texts(busyOf(text).busy)).toEqual([
      '2026-03-07T07:30:00.000Z → 2026-03-07T07:45:00.000Z',
      '2026-03-08T07:30:00.000Z → 2026-03-08T07:45:00.000Z',
      '2026-03-09T06:30:00.000Z → 2026-03-09T06:45:00.000Z',
      '2026-11-01T05:30:00.000Z → 2026-11-01T05:45:00.000Z',
    ]);
  });

  it('keeps P1D a wall-clock day when the clocks change overnight', () => {
    const text = calendar(event('UID:d', 'DTSTART;TZID=America/New_York:20260307T120000', 'DURATION:P1D'));
    expect(texts(busyOf(text).busy)).toEqual(['2026-03-07T17:00:00.000Z → 2026-03-08T16:00:00.000Z']);
  });
});

describe('busyFromIcs: single events', () => {
  it('blocks an all-day event for the whole day in the firm’s time zone, end exclusive', () => {
    const text = calendar(event('UID:holiday', 'DTSTART;VALUE=DATE:20260703', 'DTEND;VALUE=DATE:20260704'));
    expect(texts(busyOf(text).busy)).toEqual(['2026-07-03T05:00:00.000Z → 2026-07-04T05:00:00.000Z']);
    expect(texts(busyOf(text, YEAR_2026, 'Europe/Berlin').busy)).toEqual(['2026-07-02T22:00:00.000Z → 2026-07-03T22:00:00.000Z']);
  });

  it('blocks each day of a multi-day event, across a clock change, and one day for a date without an end', () => {
    const text = calendar(
      event('UID:trip', 'DTSTART;VALUE=DATE:20260306', 'DTEND;VALUE=DATE:20260310'),
      event('UID:day', 'DTSTART;VALUE=DATE:20260401'),
    );
    expect(texts(busyOf(text).busy)).toEqual([
      '2026-03-06T06:00:00.000Z → 2026-03-10T05:00:00.000Z',
      '2026-04-01T05:00:00.000Z → 2026-04-02T05:00:00.000Z',
    ]);
  });

  it('repeats an all-day event by date, and removes the date an EXDATE gives', () => {
    const text = calendar(event('UID:w', 'DTSTART;VALUE=DATE:20260601', 'RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE;VALUE=DATE:20260608'));
    expect(texts(busyOf(text).busy)).toEqual([
      '2026-06-01T05:00:00.000Z → 2026-06-02T05:00:00.000Z',
      '2026-06-15T05:00:00.000Z → 2026-06-16T05:00:00.000Z',
    ]);
  });

  it('places a London meeting at its own instant for a firm in Chicago, across London’s clock change', () => {
    const text = calendar(
      event(
        'UID:london',
        'DTSTART;TZID=Europe/London:20260323T090000',
        'DTEND;TZID=Europe/London:20260323T100000',
        'RRULE:FREQ=WEEKLY;COUNT=2',
      ),
    );
    expect(texts(busyOf(text, YEAR_2026, CHICAGO).busy)).toEqual([
      '2026-03-23T09:00:00.000Z → 2026-03-23T10:00:00.000Z',
      '2026-03-30T08:00:00.000Z → 2026-03-30T09:00:00.000Z',
    ]);
  });

  it('reads floating times in the firm’s time zone and UTC times as UTC', () => {
    const text = calendar(
      event('UID:f', 'DTSTART:20260615T090000', 'DTEND:20260615T100000'),
      event('UID:u', 'DTSTART:20260616T090000Z', 'DTEND:20260616T100000Z'),
    );
    expect(texts(busyOf(text).busy)).toEqual([
      '2026-06-15T14:00:00.000Z → 2026-06-15T15:00:00.000Z',
      '2026-06-16T09:00:00.000Z → 2026-06-16T10:00:00.000Z',
    ]);
  });

  it('takes DURATION for DTEND, and leaves out a timed event with neither', () => {
    const text = calendar(event('UID:d', 'DTSTART:20260616T090000Z', 'DURATION:PT1H30M'), event('UID:n', 'DTSTART:20260617T090000Z'));
    expect(texts(busyOf(text).busy)).toEqual(['2026-06-16T09:00:00.000Z → 2026-06-16T10:30:00.000Z']);
  });

  it('leaves out events marked free (TRANSP:TRANSPARENT) and cancelled ones, whole series included', () => {
    const text = calendar(
      event('UID:free', 'DTSTART:20260616T090000Z', 'DURATION:PT1H', 'TRANSP:TRANSPARENT'),
      event('UID:gone', 'DTSTART:20260616T110000Z', 'DURATION:PT1H', 'STATUS:CANCELLED', 'RRULE:FREQ=DAILY'),
      event('UID:busy', 'DTSTART:20260616T130000Z', 'DURATION:PT1H', 'TRANSP:OPAQUE', 'STATUS:TENTATIVE'),
    );
    expect(texts(busyOf(text).busy)).toEqual(['2026-06-16T13:00:00.000Z → 2026-06-16T14:00:00.000Z']);
  });

  it('clips to the window and merges overlapping and touching events, sorted', () => {
    const window = { start: utc(2026, 6, 16, 9, 30), end: utc(2026, 6, 16, 17) };
    const text = calendar(
      event('UID:c', 'DTSTART:20260616T160000Z', 'DTEND:20260616T180000Z'),
      event('UID:a', 'DTSTART:20260616T090000Z', 'DTEND:20260616T100000Z'),
      event('UID:b', 'DTSTART:20260616T100000Z', 'DTEND:20260616T110000Z'),
      event('UID:d', 'DTSTART:20260616T103000Z', 'DTEND:20260616T104500Z'),
    );
    expect(texts(busyOf(text, window).busy)).toEqual([
      '2026-06-16T09:30:00.000Z → 2026-06-16T11:00:00.000Z',
      '2026-06-16T16:00:00.000Z → 2026-06-16T17:00:00.000Z',
    ]);
  });

  it('reads every calendar of a file, a TZID with an exporter’s path before the IANA name, and warns of an unknown zone', () => {
    const text = [
      calendar(event('UID:moz', 'DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20260616T090000', 'DURATION:PT1H')),
      calendar(event('UID:odd', 'DTSTART;TZID=Somewhere Else:20260617T090000', 'DURATION:PT1H')),
    ].join('\r\n');
    const { busy, warnings } = busyOf(text);
    expect(texts(busy)).toEqual([
      '2026-06-16T13:00:00.000Z → 2026-06-16T14:00:00.000Z',
      '2026-06-17T14:00:00.000Z → 2026-06-17T15:00:00.000Z',
    ]);
    expect(warnings).toEqual(['The time zone "Somewhere Else" is unknown; its times were read in America/Chicago.']);
  });
});

describe('busyFromIcs: hostile and broken input', () => {
  it.each([
    ['nothing', ''],
    ['an HTML login page', '<!DOCTYPE html>\n<html><body>Sign in</body></html>'],
    ['JSON', '{"error":"not found"}'],
    ['a vCard', 'BEGIN:VCARD\r\nVERSION:4.0\r\nEND:VCARD'],
  ])('refuses %s with IcsError', (_, text) => {
    expect(() => busyOf(text)).toThrow(new IcsError('The calendar could not be read: it is not an iCalendar file.'));
  });

  it('refuses a calendar cut short or whose parts do not close in order', () => {
    const cut = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20260616T090000Z';
    const crossed = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VCALENDAR\r\nEND:VEVENT';
    for (const text of [cut, crossed]) {
      expect(() => busyOf(text)).toThrow(IcsError);
      expect(() => busyOf(text)).toThrow('The calendar could not be read: it is cut short, or its parts do not close in order.');
    }
    const deep = [
      'BEGIN:VCALENDAR',
      ...Array.from({ length: 40 }, () => 'BEGIN:X'),
      ...Array.from({ length: 40 }, () => 'END:X'),
      'END:VCALENDAR',
    ].join('\n');
    expect(() => busyOf(deep)).toThrow('The calendar could not be read: its parts are nested too deeply.');
  });

  it('skips what it cannot read inside a calendar with a warning, keeping the rest', () => {
    const text = calendar(
      ['this line has no colon'],
      event('UID:bad-start', 'DTSTART:yesterday', 'DURATION:PT1H'),
      event('UID:bad-rule', 'DTSTART:20260616T090000Z', 'DURATION:PT1H', 'RRULE:FREQ=FORTNIGHTLY'),
      event('UID:ok', 'DTSTART:20260617T090000Z', 'DURATION:PT1H'),
    );
    const { busy, warnings } = busyOf(text);
    expect(texts(busy)).toEqual([
      '2026-06-16T09:00:00.000Z → 2026-06-16T10:00:00.000Z',
      '2026-06-17T09:00:00.000Z → 2026-06-17T10:00:00.000Z',
    ]);
    expect(warnings).toEqual([
      '1 line of the calendar could not be read and was skipped.',
      'An event without a readable start (DTSTART) was skipped.',
      'The repeat rule of the event starting 2026-06-16 09:00 could not be read; only its first instance was counted.',
    ]);
  });

  it('stops a rule repeating every minute without end at the instance cap, quickly, and says so', () => {
    const window = { start: utc(2026, 3, 1), end: utc(2026, 5, 30) };
    const text = calendar(event('UID:spin', 'DTSTART:20260301T000000Z', 'DURATION:PT30S', 'RRULE:FREQ=MINUTELY'));
    const started = performance.now();
    const capped = busyFromIcs(text, window, { defaultTimeZone: CHICAGO, maxInstances: 1_000 });
    const byDefault = busyFromIcs(text, window, { defaultTimeZone: CHICAGO });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(capped.busy).toHaveLength(1_000);
    expect(capped.warnings).toEqual([
      'The calendar has more than 1,000 event instances near this period; the rest were not counted, so some busy times may be missing.',
    ]);
    expect(byDefault.busy).toHaveLength(50_000);
    expect(byDefault.busy.at(-1)).toEqual({ start: utc(2026, 3, 1) + 49_999 * 60_000, end: utc(2026, 3, 1) + 49_999 * 60_000 + 30_000 });
  });

  it('gives up on a rule that would need millions of steps to reach the window, and ends one that never matches', () => {
    const text = calendar(
      event('UID:seconds', 'DTSTART:19000101T000000Z', 'DURATION:PT1S', 'RRULE:FREQ=SECONDLY;COUNT=999999999'),
      event('UID:never', 'DTSTART:19000101T090000Z', 'DURATION:PT1H', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=5'),
      event('UID:ok', 'DTSTART:20260617T090000Z', 'DURATION:PT1H'),
    );
    const started = performance.now();
    const { busy, warnings } = busyOf(text);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(texts(busy)).toEqual(['2026-06-17T09:00:00.000Z → 2026-06-17T10:00:00.000Z']);
    expect(warnings).toEqual([
      'The event starting 1900-01-01 00:00 repeats too often to read in full; some of its instances may be missing.',
    ]);
  });

  const value = fc.oneof(
    fc.constantFrom('20260616T090000Z', '20260616', '20260616T090000', '20260230T250000', 'PT1H', '-P1D', 'P1W', 'X', '', '+0530', '-2400'),
    fc.string({ maxLength: 30 }),
  );
  const rule = fc
    .tuple(
      fc.constantFrom('SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'NEVER'),
      fc.subarray([
        'INTERVAL=3',
        'COUNT=5',
        'COUNT=999999999',
        'UNTIL=20260701T000000Z',
        'UNTIL=20260701',
        'BYDAY=-1MO,2TU,SU',
        'BYMONTHDAY=-1,31',
        'BYMONTH=2',
        'BYYEARDAY=-366,60',
        'BYWEEKNO=53,-1',
        'BYSETPOS=-1,3',
        'BYHOUR=0,23',
        'BYMINUTE=0,30',
        'BYSECOND=0,60',
        'WKST=SU',
      ]),
    )
    .map(([freq, parts]) => ['FREQ=' + freq, ...parts].join(';'));
  const property = fc.oneof(
    fc
      .tuple(
        fc.constantFrom(
          'DTSTART',
          'DTEND',
          'DURATION',
          'RDATE',
          'EXDATE',
          'RECURRENCE-ID',
          'UID',
          'STATUS',
          'TRANSP',
          'TZOFFSETFROM',
          'TZOFFSETTO',
          'TZID',
        ),
        fc.constantFrom(
          '',
          ';TZID=America/New_York',
          ';TZID=Nowhere',
          ';TZID=Local',
          ';VALUE=DATE',
          ';VALUE=PERIOD',
          ';TZID="a:b;c"',
          ';RANGE=THISANDFUTURE',
        ),
        value,
      )
      .map(([n, p, v]) => `${n}${p}:${v}`),
    rule.map((r) => `RRULE:${r}`),
    fc.constantFrom(
      'DTSTART:20260601T090000Z',
      'DTSTART;TZID=Local:20260601T090000',
      'UID:same',
      'RECURRENCE-ID:20260603T090000Z',
      'DURATION:PT1H',
    ),
  );
  const window = { start: utc(2026, 6, 1), end: utc(2026, 9, 1) };

  it('reads any well-formed calendar, whatever its values, within the window and its budgets', () => {
    const zone = fc.array(fc.oneof(property, fc.constantFrom('BEGIN:STANDARD', 'END:STANDARD', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200')), {
      maxLength: 10,
    });
    const calendars = fc.tuple(fc.array(fc.array(property, { maxLength: 8 }), { maxLength: 6 }), zone).map(([events, observance]) => {
      // Observance lines go in balanced STANDARD parts, so the zone stays well-formed.
      const balanced = observance.filter((l) => !l.includes('STANDARD'));
      return calendar(
        ['BEGIN:VTIMEZONE', 'TZID:Local', 'BEGIN:STANDARD', ...balanced, 'END:STANDARD', 'END:VTIMEZONE'],
        ...events.map((lines) => event(...lines)),
      );
    });
    fc.assert(
      fc.property(calendars, (text) => {
        const { busy } = busyFromIcs(text, window, { defaultTimeZone: CHICAGO });
        for (const [i, b] of busy.entries()) {
          expect(b.start).toBeGreaterThanOrEqual(window.start);
          expect(b.end).toBeLessThanOrEqual(window.end);
          expect(b.end).toBeGreaterThan(b.start);
          if (i > 0) expect(b.start).toBeGreaterThan(busy[i - 1]!.end);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers or throws IcsError, nothing else, for any jumble of calendar lines', () => {
    const line = fc.oneof(
      property,
      fc.constantFrom(
        'BEGIN:VEVENT',
        'END:VEVENT',
        'BEGIN:VTIMEZONE',
        'END:VTIMEZONE',
        'BEGIN:STANDARD',
        'END:STANDARD',
        'BEGIN:VCALENDAR',
        'END:VCALENDAR',
      ),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.boolean(), (lines, framed) => {
        const text = framed ? ['BEGIN:VCALENDAR', ...lines, 'END:VCALENDAR'].join('\r\n') : lines.join('\n');
        try {
          busyFromIcs(text, window, { defaultTimeZone: CHICAGO });
        } catch (error) {
          expect(error).toBeInstanceOf(IcsError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('busyFromIcs: properties', () => {
  const ZONES = [NY, 'Europe/London', 'Asia/Kolkata'] as const;
  const pad = (n: number) => String(n).padStart(2, '0');
  /** An event written one of five ways, and the interval it must block, worked out with zonedInstant. */
  const single = fc
    .record({
      kind: fc.constantFrom('utc', 'zoned', 'floating', 'date'),
      zone: fc.constantFrom(...ZONES),
      day: fc.integer({ min: 0, max: 364 }),
      // 04:00 to 23:45: no time the clocks skip or repeat in these zones.
      minute: fc.integer({ min: 16, max: 95 }).map((q) => q * 15),
      length: fc.integer({ min: 1, max: 3 * 96 }).map((q) => q * 15),
      days: fc.integer({ min: 1, max: 4 }),
    })
    .map(({ kind, zone, day, minute, length, days }) => {
      const date = new Date(utc(2026, 1, 1) + day * 86_400_000).toISOString().slice(0, 10);
      const end = new Date(utc(2026, 1, 1) + (day + days) * 86_400_000).toISOString().slice(0, 10);
      const compact = (d: string) => d.replaceAll('-', '');
      const clock = `T${pad(Math.floor(minute / 60))}${pad(minute % 60)}00`;
      if (kind === 'date') {
        return {
          lines: [`DTSTART;VALUE=DATE:${compact(date)}`, `DTEND;VALUE=DATE:${compact(end)}`],
          start: zonedInstant(date, 0, CHICAGO)!,
          end: zonedInstant(end, 0, CHICAGO)!,
        };
      }
      const readIn = kind === 'utc' ? 'UTC' : kind === 'zoned' ? zone : CHICAGO;
      const start = zonedInstant(date, minute, readIn)!;
      const written = `${compact(date)}${clock}${kind === 'utc' ? 'Z' : ''}`;
      const tzid = kind === 'zoned' ? `;TZID=${zone}` : '';
      return { lines: [`DTSTART${tzid}:${written}`, `DURATION:PT${length}M`], start, end: start + length * 60_000 };
    });
  const window = fc
    .tuple(fc.integer({ min: -5, max: 370 }), fc.integer({ min: 1, max: 60 * 24 }))
    .map(([day, hours]) => ({ start: utc(2026, 1, 1) + day * 86_400_000, end: utc(2026, 1, 1) + day * 86_400_000 + hours * 3_600_000 }));

  it('blocks a single event from its DTSTART to its end, clipped to the window', () => {
    fc.assert(
      fc.property(single, window, (e, w) => {
        const { busy, warnings } = busyOf(calendar(event('UID:one', ...e.lines)), w);
        expect(warnings).toEqual([]);
        const [start, end] = [Math.max(e.start, w.start), Math.min(e.end, w.end)];
        expect(busy).toEqual(end > start ? [{ start, end }] : []);
      }),
      { numRuns: 400 },
    );
  });

  it('gives sorted, disjoint intervals inside the window, covering exactly the events’ own', () => {
    fc.assert(
      fc.property(fc.array(single, { maxLength: 30 }), window, (events, w) => {
        const { busy } = busyOf(calendar(...events.map((e, i) => event(`UID:${i}`, ...e.lines))), w);
        for (const [i, b] of busy.entries()) {
          expect(b.start).toBeGreaterThanOrEqual(w.start);
          expect(b.end).toBeLessThanOrEqual(w.end);
          expect(b.end).toBeGreaterThan(b.start);
          if (i > 0) expect(b.start).toBeGreaterThan(busy[i - 1]!.end);
        }
        // Every minute is busy exactly when some event covers it.
        const covered = (t: number) => events.some((e) => e.start <= t && t < e.end);
        const edges = [...new Set(events.flatMap((e) => [e.start, e.end]).concat(w.start, w.end))].filter((t) => t >= w.start && t < w.end);
        for (const t of edges)
          expect(
            busy.some((b) => b.start <= t && t < b.end),
            new Date(t).toISOString(),
          ).toBe(covered(t));
      }),
      { numRuns: 200 },
    );
  });

  it('places every instance of a daily or weekly series at its wall-clock time, less its EXDATEs', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(NY, 'Europe/London', CHICAGO),
        fc.constantFrom('DAILY', 'WEEKLY'),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 16, max: 92 }).map((q) => q * 15),
        fc.uniqueArray(fc.integer({ min: 1, max: 59 }), { maxLength: 5 }),
        window,
        (zone, freq, interval, count, day, minute, skipped, w) => {
          const step = (freq === 'DAILY' ? 1 : 7) * interval;
          const dateOf = (k: number) => new Date(utc(2026, 1, 1) + (day + k * step) * 86_400_000).toISOString().slice(0, 10);
          const written = (k: number) => `${dateOf(k).replaceAll('-', '')}T${pad(Math.floor(minute / 60))}${pad(minute % 60)}00`;
          const exdates = skipped.filter((k) => k < count);
          const lines = [`DTSTART;TZID=${zone}:${written(0)}`, 'DURATION:PT45M', `RRULE:FREQ=${freq};INTERVAL=${interval};COUNT=${count}`];
          if (exdates.length > 0) lines.push(`EXDATE;TZID=${zone}:${exdates.map(written).join(',')}`);
          const { busy } = busyOf(calendar(event('UID:s', ...lines)), w);
          const expected: Busy[] = [];
          for (let k = 0; k < count; k++) {
            if (exdates.includes(k)) continue;
            const start = zonedInstant(dateOf(k), minute, zone)!;
            const [from, to] = [Math.max(start, w.start), Math.min(start + 45 * 60_000, w.end)];
            if (to > from) expected.push({ start: from, end: to });
          }
          expect(busy).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('busyFromIcs: what reading through ical.js needs', () => {
  it('walks a rule without COUNT from near the window, with the instances of a walk from its start', () => {
    // Every other week's Monday and Thursday since January 2015, and every third day: ical.js is started a period before the window.
    const text = calendar(
      event('UID:fortnight', 'DTSTART;TZID=America/New_York:20150105T090000', 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH'),
      event('UID:third', 'DTSTART:20150101T170000Z', 'DURATION:PT1H', 'RRULE:FREQ=DAILY;INTERVAL=3;UNTIL=20260620T170000Z'),
    );
    const june = { start: utc(2026, 6, 1), end: utc(2026, 7, 1) };
    const expected: Busy[] = [];
    for (let day = utc(2015, 1, 5); day < june.end; day += 86_400_000) {
      const date = new Date(day).toISOString().slice(0, 10);
      const weekday = new Date(day).getUTCDay();
      const week = Math.floor((day - utc(2015, 1, 5)) / (7 * 86_400_000));
      if ((weekday === 1 || weekday === 4) && week % 2 === 0) {
        const start = zonedInstant(date, 9 * 60, NY)!;
        if (start >= june.start) expected.push({ start, end: start + 3_600_000 });
      }
    }
    for (let day = utc(2015, 1, 1, 17); day <= utc(2026, 6, 20, 17); day += 3 * 86_400_000) {
      if (day >= june.start) expected.push({ start: day, end: day + 3_600_000 });
    }
    const { busy, warnings } = busyOf(text, june);
    expect(warnings).toEqual([]);
    expect(busy).toEqual(expected.sort((a, b) => a.start - b.start));
  });

  it('counts DTSTART as the first of COUNT instances when the rule does not give it, as RFC 5545 says and ical.js does not', () => {
    // Saturday 6 June, then Mondays: ical.js alone gives three Mondays after the Saturday.
    const text = calendar(event('UID:c', 'DTSTART:20260606T090000Z', 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3'));
    expect(texts(busyOf(text).busy)).toEqual([
      '2026-06-06T09:00:00.000Z → 2026-06-06T10:00:00.000Z',
      '2026-06-08T09:00:00.000Z → 2026-06-08T10:00:00.000Z',
      '2026-06-15T09:00:00.000Z → 2026-06-15T10:00:00.000Z',
    ]);
  });

  it('does not let ical.js expand a time zone defined to change every second, nor search centuries for a yearly instance that never comes', () => {
    const spinning = [
      'BEGIN:VTIMEZONE',
      'TZID:Spin',
      'BEGIN:STANDARD',
      'DTSTART:16010101T000000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'RRULE:FREQ=SECONDLY',
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const text = calendar(
      spinning,
      event('UID:s', 'DTSTART;TZID=Spin:20260616T090000', 'DURATION:PT1H'),
      // The 40th Monday of February.
      event('UID:y', 'DTSTART:19000101T090000Z', 'DURATION:PT1H', 'RRULE:FREQ=YEARLY;BYMONTH=2;BYDAY=MO;BYSETPOS=40'),
    );
    const started = performance.now();
    const { busy, warnings } = busyOf(text);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(texts(busy)).toEqual(['2026-06-16T14:00:00.000Z → 2026-06-16T15:00:00.000Z']);
    expect(warnings).toEqual(['The time zone "Spin" defined in the calendar could not be read; its times were read in America/Chicago.']);
  });
});
