/**
 * `npx tsx bench/ics-busy.ts`: how long busyFromIcs (src/server/calendars/ics-busy.ts) takes
 * to read a generated calendar and expand it over a 90-day window, how much of that is ical.js
 * parsing it, what the worker thread adds (readIcsBusy, src/server/calendars/read-ics.ts), and
 * how long it spends on hostile rules before its budgets stop it. Prints figures only (the
 * median and the slowest of BENCH_ICS_RUNS runs, 15 by default, after three warm-up runs); no
 * targets, no exit code.
 *
 * The calendar: BENCH_ICS_EVENTS events (2,000), a quarter of them repeating (half weekly on
 * two or three weekdays, half daily on weekdays; some ending by COUNT or UNTIL; each with two
 * EXDATEs and two instances changed on their own: one moved, one cancelled), the rest single
 * events over the 18 months around the window. Their times are in America/New_York (with its
 * VTIMEZONE, as Google writes it), Europe/London, UTC and floating; a tenth of the single and
 * weekly ones all-day.
 * The window starts 2026-03-01, so it spans the March clock changes on both continents.
 */
import { busyFromIcs } from '../src/server/calendars/ics-busy.ts';
import { parseIcs } from '../src/server/calendars/ics-parse.ts';
import { readIcsBusy, stopIcsReader } from '../src/server/calendars/read-ics.ts';
import { envInt } from './lib/env.ts';

const FIRM_ZONE = 'America/Chicago';
const WINDOW = { start: Date.UTC(2026, 2, 1, 6), end: Date.UTC(2026, 4, 30, 5) };

/** A small seeded generator (mulberry32), so every run reads the same calendar. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** 20260301T093000, the wall-clock text of an instant read as UTC. */
const stamp = (wall: number) => {
  const d = new Date(wall);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00`;
};
const dateStamp = (wall: number) => stamp(wall).slice(0, 8);

const NEW_YORK = [
  'BEGIN:VTIMEZONE',
  'TZID:America/New_York',
  'X-LIC-LOCATION:America/New_York',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

export function generateCalendar(events: number, seed = 1): string {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//bench//ics-busy//EN', ...NEW_YORK];
  const zones = [';TZID=America/New_York', ';TZID=Europe/London', 'Z', ''] as const;
  const time = (zone: (typeof zones)[number], wall: number) => (zone === 'Z' ? `:${stamp(wall)}Z` : `${zone}:${stamp(wall)}`);
  for (let i = 0; i < events; i++) {
    const zone = pick(zones);
    const repeating = i % 4 === 0;
    const weekly = i % 8 === 0;
    // A tenth all-day: single events and weekly ones (a daily all-day event would fill the window).
    const allDay = (!repeating || weekly) && next() < 0.1;
    // Single events over the 18 months around the window; repeating ones began up to two years before it.
    const day = repeating
      ? Date.UTC(2024, 2, 1) + Math.floor(next() * 730) * 86_400_000
      : Date.UTC(2025, 8, 1) + Math.floor(next() * 548) * 86_400_000;
    const start = day + (8 + Math.floor(next() * 9)) * 3_600_000 + pick([0, 15, 30, 45]) * 60_000;
    const minutes = pick([15, 30, 45, 60, 90, 120]);
    lines.push('BEGIN:VEVENT', `UID:event-${i}@bench`, `DTSTAMP:20260101T000000Z`, `SUMMARY:Event ${i}`);
    if (allDay)
      lines.push(
        `DTSTART;VALUE=DATE:${dateStamp(day)}`,
        `DTEND;VALUE=DATE:${dateStamp(day + (repeating ? 1 : 1 + Math.floor(next() * 3)) * 86_400_000)}`,
      );
    else lines.push(`DTSTART${time(zone, start)}`, `DTEND${time(zone, start + minutes * 60_000)}`);
    if (next() < 0.05) lines.push('TRANSP:TRANSPARENT');
    if (!repeating) {
      lines.push('END:VEVENT');
      continue;
    }
    const ending = next();
    const end = ending < 0.2 ? ';COUNT=40' : ending < 0.4 ? `;UNTIL=${stamp(WINDOW.start + 30 * 86_400_000)}Z` : '';
    lines.push(
      weekly ? `RRULE:FREQ=WEEKLY;BYDAY=${pick(['MO,WE', 'TU,TH', 'MO,WE,FR'])}${end}` : `RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR${end}`,
    );
    // Exceptions near the window, on instances' own wall-clock times.
    const near = (k: number) => (allDay ? day : start) + Math.ceil((WINDOW.start - day) / 604_800_000 + k) * 604_800_000;
    const exdates = [near(1), near(3)].filter((w) => w > start);
    if (exdates.length > 0)
      lines.push(
        allDay
          ? `EXDATE;VALUE=DATE:${exdates.map(dateStamp).join(',')}`
          : `EXDATE${time(zone, exdates[0]!).replace(/:.*/, '')}:${exdates.map(stamp).join(',')}${zone === 'Z' ? 'Z' : ''}`,
      );
    lines.push('END:VEVENT');
    for (const [k, cancelled] of [
      [2, false],
      [4, true],
    ] as const) {
      const original = near(k);
      if (original <= start) continue;
      const id = allDay ? `;VALUE=DATE:${dateStamp(original)}` : time(zone, original);
      const moved = original + 2 * 3_600_000;
      lines.push('BEGIN:VEVENT', `UID:event-${i}@bench`, `RECURRENCE-ID${id}`, `SUMMARY:Event ${i} (changed)`);
      if (allDay)
        lines.push(`DTSTART;VALUE=DATE:${dateStamp(original + 86_400_000)}`, `DTEND;VALUE=DATE:${dateStamp(original + 2 * 86_400_000)}`);
      else lines.push(`DTSTART${time(zone, moved)}`, `DTEND${time(zone, moved + minutes * 60_000)}`);
      if (cancelled) lines.push('STATUS:CANCELLED');
      lines.push('END:VEVENT');
    }
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n');
}

async function time(label: string, runs: number, work: () => unknown): Promise<void> {
  for (let i = 0; i < 3; i++) await work();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  console.log(`  ${label}: median ${ms[Math.floor(runs / 2)]!.toFixed(1)} ms, slowest ${ms.at(-1)!.toFixed(1)} ms (${runs} runs)`);
}

const everySecond = ['DTSTART:19000101T000000Z', 'DURATION:PT1S', 'RRULE:FREQ=SECONDLY;COUNT=999999999'];
/** Calendars built to make an expander spin, each a list of events (their lines). */
const HOSTILE: [string, string[][]][] = [
  ['every minute, no end (stopped by the instance cap)', [['DTSTART:20260301T000000Z', 'DURATION:PT30S', 'RRULE:FREQ=MINUTELY']]],
  ["every second since 1900, COUNT=999,999,999 (stopped by its rule's step budget)", [everySecond]],
  ["20 such rules (stopped by the calendar's step budget)", Array.from({ length: 20 }, () => everySecond)],
  [
    'a day that never comes, daily since 1900 with COUNT (seen to be impossible, not walked)',
    [['DTSTART:19000101T090000Z', 'DURATION:PT1H', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=5']],
  ],
  [
    // ical.js 2.2.1 expands no BYHOUR, BYMINUTE or BYSECOND of a yearly rule: it gives its DTSTART alone.
    'every second of every day, yearly (ical.js gives one instance)',
    [
      [
        'DTSTART:20260101T000000Z',
        'DURATION:PT1S',
        'RRULE:FREQ=YEARLY;BYYEARDAY=1,2,3,60,61,62,63,64,65,66,67,68,69,70;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=0,10,20,30,40,50;BYSECOND=0,30',
      ],
    ],
  ],
];

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const runs = envInt('BENCH_ICS_RUNS', 15, 1, 1000);
  const events = envInt('BENCH_ICS_EVENTS', 2_000, 1, 1_000_000);
  const text = generateCalendar(events);
  const options = { defaultTimeZone: FIRM_ZONE };
  const result = busyFromIcs(text, WINDOW, options);
  console.log(
    `ics-busy: ${events.toLocaleString('en-US')} events (${(text.length / 1024).toFixed(0)} KiB), window 90 days from 2026-03-01, node ${process.version}`,
  );
  const hours = result.busy.reduce((sum, b) => sum + (b.end - b.start), 0) / 3_600_000;
  console.log(
    `  answer: ${result.busy.length.toLocaleString('en-US')} busy intervals, ${hours.toFixed(0)} of the window's ${((WINDOW.end - WINDOW.start) / 3_600_000).toFixed(0)} hours, ${result.warnings.length} warnings`,
  );
  await time('parse only (ical.js, with its checks)', runs, () => parseIcs(text));
  await time('parse and expand', runs, () => busyFromIcs(text, WINDOW, options));
  // The same in the worker thread: the text copied there and the answer back (the thread already started).
  await time('parse and expand in the worker (readIcsBusy)', runs, () => readIcsBusy(text, WINDOW, options));
  for (const [label, events] of HOSTILE) {
    const hostile = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      ...events.flatMap((e, i) => ['BEGIN:VEVENT', `UID:hostile-${i}`, ...e, 'END:VEVENT']),
      'END:VCALENDAR',
    ].join('\r\n');
    await time(label, Math.min(runs, 5), () => busyFromIcs(hostile, WINDOW, options));
  }
  await stopIcsReader();
}
