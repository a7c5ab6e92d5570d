import type { BookingSettings } from '#shared/schemas/booking';
import { addDays } from '#shared/zoned-time';
import { SharedRateLimit } from '../analytics/shared-rate-limit.ts';
import type { Database, Db } from '../db/client.ts';
import { readAvailabilityInputs, readAvailabilityVersion } from '../db/queries/availability-versions-queries.ts';
import { bookableDates, type DayTimes } from './open-times.ts';
import { teamTimesOfDay, toHost } from './hosts.ts';

/** The open times of one availability version: its settings and each business date computed so far. */
type Computed = { version: number; settings: BookingSettings | undefined; days: Map<string, DayTimes> };

/** What GET /api/public/availability answers, before it is written out. */
export type OpenTimes = { settings: BookingSettings; slots: string[]; lastDate: string };

/** Dates kept per version before the ones already past are dropped (a year's window and some). */
const MAX_DAYS_KEPT = 400;
/** The cache's key for everyone's times (a person's are under their id). */
const ANYONE = '*';
/** A date's times in the cache: whose, and the date (its last 10 characters). */
const dayKey = (who: string, date: string) => `${who}|${date}`;
/** Dates computed in one turn of the event loop. */
const DAYS_PER_TURN = 7;

/**
 * The public open times of this process, cached, and the per-address limit on asking for them.
 *
 * Open times are computed per business date and kept for the availability version they were
 * computed from (db/queries/availability-versions-queries.ts). Each request first reads the version,
 * one tiny query: a booking, a staff change or a settings save committed by any process has
 * raised it by then, and the cache starts over. So a time booked anywhere is never offered
 * after its booking committed. Dates not computed yet are computed from one read of the
 * settings and the bookable people with their calls (one statement, so they are of the version
 * read with them); a date's times are those when anyone of them is free.
 *
 * A day's times are kept whatever the time now; the window (today to `horizon_days`) and the
 * minimum notice are applied to every answer, so times drop out as the clock moves.
 */
export class PublicAvailability {
  private current: Computed = { version: -1, settings: undefined, days: new Map() };
  private readonly limiter: SharedRateLimit | undefined;
  /** Since start: answers served wholly from the cache, and dates computed (for tests and /metrics-style checks). */
  readonly stats = { cachedAnswers: 0, computedDays: 0 };

  /** `perAddressPerMinute`: AVAILABILITY_RATE_LIMIT, shared by every process; 0 = no limit. */
  constructor(
    database: () => Database | undefined,
    private readonly timeZone: string,
    perAddressPerMinute: number,
  ) {
    this.limiter = perAddressPerMinute > 0 ? new SharedRateLimit(database, perAddressPerMinute, 60) : undefined;
  }

  /** Counts one request from `address` (its rate-limit key); false when past the limit. */
  async allow(address: string): Promise<boolean> {
    return this.limiter ? this.limiter.hit(`availability:${address}`) : true;
  }

  /**
   * The open times between business dates `from` and `to` (both included) at `now`: anyone's
   * who takes website calls, or `hostId`'s alone (none when they do not take them).
   */
  async openTimes(db: Db, from: string, to: string, now: number, hostId?: string): Promise<OpenTimes> {
    const who = hostId ?? ANYONE;
    const version = await readAvailabilityVersion(db);
    const cached = this.computedFor(version);
    if (cached.settings && this.missing(cached, cached.settings, who, from, to, now) === 0) {
      this.stats.cachedAnswers++;
      return this.answer(cached, cached.settings, who, from, to, now);
    }
    const inputs = await readAvailabilityInputs(db, this.timeZone, from, to);
    // Usually the version just read; newer if something changed in between (then that).
    const computed = this.computedFor(inputs.version);
    computed.settings ??= inputs.settings;
    const { settings } = computed;
    const { first, last } = this.range(settings, from, to, now);
    if (settings.enabled && first <= last) {
      const hosts = inputs.hosts.filter((h) => who === ANYONE || h.id === who).map((h) => toHost(h, settings));
      let sinceYield = 0;
      for (let date = first; date <= last; date = addDays(date, 1)) {
        if (computed.days.has(dayKey(who, date))) continue;
        // A week at a time, letting other requests in between: a month of the widest settings,
        // in one piece, would hold up every other request meanwhile (docs/performance.md,
        // "Measurements behind the code").
        if (++sinceYield > DAYS_PER_TURN) {
          sinceYield = 1;
          await new Promise((resolve) => setImmediate(resolve));
        }
        computed.days.set(dayKey(who, date), teamTimesOfDay(settings, this.timeZone, date, hosts));
        this.stats.computedDays++;
      }
      if (computed.days.size > MAX_DAYS_KEPT) {
        const today = bookableDates(settings, this.timeZone, now).first;
        for (const key of computed.days.keys()) if (key.slice(-10) < today) computed.days.delete(key);
      }
    }
    return this.answer(computed, settings, who, from, to, now);
  }

  /**
   * The cache of `version`: the current one; a fresh one that replaces it when `version` is
   * newer; a fresh one for this request only when it is older (a slower request read it
   * before another process's change that a faster one has already seen).
   */
  private computedFor(version: number): Computed {
    if (version === this.current.version) return this.current;
    const fresh: Computed = { version, settings: undefined, days: new Map() };
    if (version > this.current.version) this.current = fresh;
    return fresh;
  }

  /** The dates asked for that may be booked at `now` (from > last when none). */
  private range(settings: BookingSettings, from: string, to: string, now: number) {
    const window = bookableDates(settings, this.timeZone, now);
    return { first: from > window.first ? from : window.first, last: to < window.last ? to : window.last, lastDate: window.last };
  }

  private missing(computed: Computed, settings: BookingSettings, who: string, from: string, to: string, now: number): number {
    if (!settings.enabled) return 0;
    const { first, last } = this.range(settings, from, to, now);
    let n = 0;
    for (let date = first; date <= last; date = addDays(date, 1)) if (!computed.days.has(dayKey(who, date))) n++;
    return n;
  }

  private answer(computed: Computed, settings: BookingSettings, who: string, from: string, to: string, now: number): OpenTimes {
    const { first, last, lastDate } = this.range(settings, from, to, now);
    const slots: string[] = [];
    if (!settings.enabled) return { settings, slots, lastDate };
    const earliest = now + settings.min_notice_hours * 3_600_000;
    for (let date = first; date <= last; date = addDays(date, 1)) {
      const day = computed.days.get(dayKey(who, date))!;
      // Starts are sorted: skip those within the notice, take the rest of the day as it is.
      let i = 0;
      while (i < day.starts.length && day.starts[i]! < earliest) i++;
      for (; i < day.iso.length; i++) slots.push(day.iso[i]!);
    }
    return { settings, slots, lastDate };
  }
}
