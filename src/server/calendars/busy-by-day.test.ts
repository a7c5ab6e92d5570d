import { describe, expect, it } from 'vitest';
import { zonedInstant } from '#shared/zoned-time';
import type { Db } from '../db/client.ts';
import { AppError } from '../lib/app-error.ts';
import { outsideBusyByDay, piecesByDay } from './busy-by-day.ts';

const NY = 'America/New_York';
const at = (date: string, time: string) => zonedInstant(date, Number(time.slice(0, 2)) * 60 + Number(time.slice(3)), NY)!;

describe('piecesByDay', () => {
  it('cuts a busy time at the business time zone’s midnights, the end of a day as 24:00', () => {
    const from = at('2026-05-04', '00:00');
    const to = at('2026-05-07', '00:00');
    expect(piecesByDay({ start: at('2026-05-04', '22:00'), end: at('2026-05-05', '02:00') }, NY, from, to)).toEqual([
      { date: '2026-05-04', start: '22:00', end: '24:00' },
      { date: '2026-05-05', start: '00:00', end: '02:00' },
    ]);
    expect(piecesByDay({ start: at('2026-05-04', '09:00'), end: at('2026-05-04', '09:45') }, NY, from, to)).toEqual([
      { date: '2026-05-04', start: '09:00', end: '09:45' },
    ]);
    // Two whole days and a bit.
    expect(piecesByDay({ start: at('2026-05-04', '12:00'), end: at('2026-05-06', '08:30') }, NY, from, to)).toEqual([
      { date: '2026-05-04', start: '12:00', end: '24:00' },
      { date: '2026-05-05', start: '00:00', end: '24:00' },
      { date: '2026-05-06', start: '00:00', end: '08:30' },
    ]);
  });

  it('keeps to the range asked for', () => {
    const from = at('2026-05-05', '00:00');
    const to = at('2026-05-06', '00:00');
    expect(piecesByDay({ start: at('2026-05-04', '20:00'), end: at('2026-05-06', '03:00') }, NY, from, to)).toEqual([
      { date: '2026-05-05', start: '00:00', end: '24:00' },
    ]);
  });

  it('holds a day the clocks change: 23 hours, still ending at 24:00', () => {
    const from = at('2026-03-08', '00:00');
    const to = at('2026-03-09', '00:00');
    expect(to - from).toBe(23 * 3_600_000);
    expect(piecesByDay({ start: at('2026-03-08', '01:00'), end: at('2026-03-09', '01:00') }, NY, from, to)).toEqual([
      { date: '2026-03-08', start: '01:00', end: '24:00' },
    ]);
  });
});

describe('outsideBusyByDay', () => {
  it('refuses more than 45 days, or a last day before the first, before reading anything', async () => {
    const unread = {} as Db;
    for (const [from, to] of [
      ['2026-05-01', '2026-06-15'],
      ['2026-05-02', '2026-05-01'],
    ] as const) {
      const refused = await outsideBusyByDay(unread, NY, 'someone', from, to).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).status).toBe(400);
      expect((refused as AppError).message).toBe('Ask for at most 45 days, the last on or after the first.');
    }
  });
});
