import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script, without types
import { SERVER_BUILD, WORKER_ENTRIES } from '../../../scripts/build-server.mjs';
import { busyFromIcs, IcsError } from './ics-busy.ts';
import { readIcsBusy, stopIcsReader, WORKER_IN_BUILD } from './read-ics.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const OPTIONS = { defaultTimeZone: 'America/Chicago' };
const JUNE = { start: Date.UTC(2026, 5, 1), end: Date.UTC(2026, 6, 1) };

const calendar = (...events: string[][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    ...events.flatMap((lines, i) => ['BEGIN:VEVENT', `UID:${i}@test`, ...lines, 'END:VEVENT']),
    'END:VCALENDAR',
  ].join('\r\n');
const WEEKLY = calendar(
  [
    'DTSTART;TZID=America/New_York:20260302T090000',
    'DTEND;TZID=America/New_York:20260302T100000',
    'RRULE:FREQ=WEEKLY;BYDAY=MO,TH',
    'EXDATE:20260608T130000Z',
  ],
  ['DTSTART;VALUE=DATE:20260619', 'DTEND;VALUE=DATE:20260620'],
  ['DTSTART;TZID=Nowhere:20260624T090000', 'DURATION:PT1H'],
);
/** Twenty rules ical.js would follow a second at a time since 1900: seconds of work before the budgets stop them (bench/ics-busy.ts). */
const SLOW = calendar(
  ...Array.from({ length: 20 }, () => ['DTSTART:19000101T000000Z', 'DURATION:PT1S', 'RRULE:FREQ=SECONDLY;COUNT=999999999']),
);

afterAll(() => stopIcsReader());

describe('readIcsBusy', () => {
  it('answers what busyFromIcs answers, and refuses what it refuses with the same IcsError', async () => {
    const read = await readIcsBusy(WEEKLY, JUNE, OPTIONS);
    expect(read).toEqual(busyFromIcs(WEEKLY, JUNE, OPTIONS));
    expect(read.busy).toHaveLength(10);
    expect(read.warnings).toEqual(['The time zone "Nowhere" is unknown; its times were read in America/Chicago.']);
    await expect(readIcsBusy('<!DOCTYPE html>', JUNE, OPTIONS)).rejects.toThrow(
      new IcsError('The calendar could not be read: it is not an iCalendar file.'),
    );
    await expect(readIcsBusy(WEEKLY, JUNE, { defaultTimeZone: 'Mars/Olympus' })).rejects.toThrow(RangeError);
  });

  it('cuts a calendar that takes too long off at the time limit, while the event loop keeps turning', async () => {
    await readIcsBusy(WEEKLY, JUNE, OPTIONS); // the thread started, so its start-up is not timed
    let ticks = 0;
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 10);
    const started = performance.now();
    try {
      await expect(readIcsBusy(SLOW, JUNE, { ...OPTIONS, timeoutMs: 400 })).rejects.toThrow(
        new IcsError(
          'The calendar took too long to read; it may be too large or repeat too often. Try again later, or ask for a smaller calendar.',
        ),
      );
    } finally {
      clearInterval(ticker);
    }
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(390);
    expect(waited).toBeLessThan(2_000);
    // Reading SLOW takes seconds of one thread (busyFromIcs alone: ~3 s), none of them this one's:
    // the interval kept firing (a loaded machine may still delay a tick now and then).
    expect(ticks).toBeGreaterThanOrEqual(15);
    expect(longestGap).toBeLessThan(1_000);
    // The terminated thread is replaced.
    expect(await readIcsBusy(WEEKLY, JUNE, OPTIONS)).toEqual(busyFromIcs(WEEKLY, JUNE, OPTIONS));
  });

  it('fails a read whose thread is stopped under it with IcsError, and reads the next one in a new thread', async () => {
    const reading = readIcsBusy(SLOW, JUNE, OPTIONS);
    const queued = readIcsBusy(WEEKLY, JUNE, OPTIONS);
    await stopIcsReader();
    await expect(reading).rejects.toThrow(new IcsError('The calendar could not be read: its reader stopped before the end. Try again.'));
    expect(await queued).toEqual(busyFromIcs(WEEKLY, JUNE, OPTIONS));
  });
});

describe('the calendar reader in a build', () => {
  it('is built where read-ics.ts looks for it', () => {
    expect(WORKER_ENTRIES).toEqual({ [WORKER_IN_BUILD.replace(/\.js$/, '')]: 'src/server/calendars/ics-worker.ts' });
  });

  it('is found from main.js and from a tool in cli/, as esbuild bundles them', async () => {
    // Inside the repository, so the built worker finds ical.js in node_modules as dist/ does.
    // .test-data/ is made here too: on a fresh clone the unit project runs before anything made it.
    mkdirSync(path.join(ROOT, '.test-data'), { recursive: true });
    const outdir = mkdtempSync(path.join(ROOT, '.test-data', 'read-ics-build-'));
    try {
      const readIcs = 'src/server/calendars/read-ics.ts';
      await build({ ...SERVER_BUILD, entryPoints: { main: readIcs, 'cli/tool': readIcs, ...WORKER_ENTRIES }, outdir, logLevel: 'silent' });
      const expected = busyFromIcs(WEEKLY, JUNE, OPTIONS);
      for (const entry of ['main.js', 'cli/tool.js']) {
        const script = `const { readIcsBusy } = await import(${JSON.stringify(path.join(outdir, entry))});
          process.stdout.write(JSON.stringify(await readIcsBusy(process.env.ICS, JSON.parse(process.env.WINDOW), { defaultTimeZone: 'America/Chicago' })));`;
        const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
          env: { ...process.env, ICS: WEEKLY, WINDOW: JSON.stringify(JUNE) },
          timeout: 20_000,
        });
        expect(JSON.parse(stdout), entry).toEqual(expected);
      }
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
