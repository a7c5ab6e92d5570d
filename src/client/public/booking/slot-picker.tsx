import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Availability, PendingBooking, PublicBooking, PublicHosts } from '#shared/schemas/booking';
import { ApiError } from '#client/lib/api-client.ts';
import { bookCall, getAvailability, getHosts, moveCall } from './api.ts';
import { addDays } from '#shared/zoned-time';
import {
  availabilityPage,
  businessTime,
  dayLabel,
  firstAvailabilityPage,
  groupByDay,
  localTime,
  longDayLabel,
  zoneName,
} from './slot-format.ts';

const DAYS_SHOWN = 6;
const NO_TIMES = 'There are no open times right now. We will call you to agree a time.';
const LOAD_FAILED = 'The open times could not be loaded. Please try again.';
const MORE_FAILED = 'More days could not be loaded. Please try again.';
const BOOK_FAILED = 'Something went wrong. Please try again.';

type Props = {
  token: string;
  /** book: a new call; move: the booked call to another time. */
  mode: 'book' | 'move';
  heading: string;
  /** The call's kind now (moving keeps it unless changed). */
  initialType?: string;
  /** Booked or moved; or, booking, held until the visitor confirms it from our email. */
  onDone: (booking: PublicBooking | PendingBooking) => void;
  /** "Skip, call me instead" (booking) or "Keep my time" (moving). */
  onSkip: () => void;
  skipLabel: string;
};

/**
 * Pick a day, a time and Call or Zoom, then confirm. Days and times are radio buttons (arrow
 * keys move within each group); the times read on the business clock, with the visitor's own
 * beside them when it differs. A time taken meanwhile answers 409 with that day's open times,
 * which replace the list. Open times come a page of dates at a time (the most the server
 * answers at once), the next page asked for when the days shown run out, up to the last date
 * that may be booked.
 */
export function SlotPicker({ token, mode, heading, initialType, onDone, onSkip, skipLabel }: Props) {
  const [availability, setAvailability] = useState<Availability | null>(null);
  /** The first date of the next page to ask for; null once the last date that may be booked is in. */
  const [nextFrom, setNextFrom] = useState<string | null>(() => firstAvailabilityPage().from);
  const [loadError, setLoadError] = useState(false);
  const [day, setDay] = useState<string | null>(null);
  const [slot, setSlot] = useState<string | null>(null);
  const [type, setType] = useState<string | null>(initialType ?? null);
  const [shown, setShown] = useState(DAYS_SHOWN);
  const [message, setMessage] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Booking, when the firm lets visitors choose: the people to choose from, and the one chosen ('' = any available).
  const [hosts, setHosts] = useState<PublicHosts['hosts']>([]);
  const [hostId, setHostId] = useState('');
  const hostCurrent = useRef(hostId);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const visitorZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const days = availability ? groupByDay(availability.slots) : new Map<string, string[]>();
  const dayKeys = [...days.keys()];
  const times = day ? (days.get(day) ?? []) : [];
  const timeZone = availability?.time_zone ?? visitorZone;

  // One page after another while no more days are in than are shown (one more tells "Show more
  // days" there is one), until the last date that may be booked.
  const needMore = nextFrom !== null && !loadError && dayKeys.length <= shown;
  const asking = useRef<string | null>(null);
  useEffect(() => {
    if (!needMore || asking.current === nextFrom) return;
    asking.current = nextFrom;
    const { from, to } = availabilityPage(nextFrom);
    const asked = hostId;
    getAvailability(from, to, asked || undefined).then(
      (a) => {
        asking.current = null;
        if (asked !== hostCurrent.current) return; // the visitor chose someone else meanwhile
        // Booking is off: back to what the form did before there was booking.
        if (!a.enabled) return onSkip();
        setAvailability((before) => ({ ...a, slots: [...(before?.slots ?? []), ...a.slots] }));
        setNextFrom(to < a.last_date ? addDays(to, 1) : null);
        setType((t) => (t && (a.types as string[]).includes(t) ? t : (a.types[0] ?? null)));
        setDay((d) => d ?? a.slots[0]?.slice(0, 10) ?? null);
      },
      () => {
        asking.current = null;
        setLoadError(true);
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asks for the page nextFrom names, once
  }, [needMore, nextFrom, hostId]);
  useEffect(() => {
    if (mode !== 'book') return;
    getHosts().then(
      (h) => setHosts(h.choose ? h.hosts : []),
      () => setHosts([]), // no choice offered: any available, as before
    );
  }, [mode]);
  /** Another person (or any available): their open times from the first page again. */
  const chooseHost = (id: string) => {
    hostCurrent.current = id;
    asking.current = null;
    setHostId(id);
    setAvailability(null);
    setNextFrom(firstAvailabilityPage().from);
    setDay(null);
    setSlot(null);
    setShown(DAYS_SHOWN);
    setMessage(null);
  };
  const retry = () => setLoadError(false);
  useEffect(() => headingRef.current?.focus(), []);
  /**
   * Still filling the first screen of days (the first pages may have few or none). The form
   * waits for it, so days arriving later never push the times and Confirm down under a finger.
   */
  const finding = nextFrom !== null && !loadError && dayKeys.length <= DAYS_SHOWN && shown === DAYS_SHOWN;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (!slot || !type) {
      setMessage(slot ? 'Choose Call or Zoom.' : 'Pick a time.');
      return;
    }
    setSubmitting(true);
    setMessage(null);
    try {
      onDone(mode === 'book' ? await bookCall(token, slot, type, hostId || undefined) : await moveCall(token, slot, type));
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && availability) {
        // Taken meanwhile: the answer holds that day's open times now.
        const fresh = error.slots;
        if (fresh) {
          const others = availability.slots.filter((s) => !s.startsWith(slot.slice(0, 10)));
          setAvailability({ ...availability, slots: [...others, ...fresh].sort() });
        }
        setSlot(null);
        setMessage(error.message);
      } else {
        setMessage(error instanceof ApiError && error.status < 500 ? error.message : BOOK_FAILED);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="grid gap-5">
      <h3 ref={headingRef} tabIndex={-1} className="text-xl font-bold text-navy-900 focus:outline-none">
        {heading}
      </h3>
      {hosts.length > 1 ? (
        <label className="grid gap-1 text-sm font-semibold text-navy-900 sm:max-w-xs">
          With
          <select
            value={hostId}
            onChange={(e) => chooseHost(e.currentTarget.value)}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 font-normal text-slate-900"
          >
            <option value="">Any available</option>
            {hosts.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {loadError && dayKeys.length === 0 ? (
        <div role="alert" className="grid gap-3 text-slate-700">
          <p>{LOAD_FAILED}</p>
          <button
            type="button"
            onClick={retry}
            className="justify-self-start rounded-md border border-slate-300 px-4 py-2 font-semibold text-navy-900 hover:bg-slate-50"
          >
            Try again
          </button>
        </div>
      ) : !availability || finding ? (
        <p role="status" className="text-slate-600">
          Loading open times…
        </p>
      ) : dayKeys.length === 0 ? (
        <p role="status" className="text-slate-700">
          {NO_TIMES}
        </p>
      ) : (
        <form noValidate onSubmit={(e) => void onSubmit(e)} aria-label={heading} className="grid gap-5">
          <p className="text-sm text-slate-600">
            Times are in {zoneName(availability.slots[0]!, timeZone)} ({timeZone.replace(/_/g, ' ')}), {availability.slot_minutes} minutes
            each.
          </p>
          <fieldset className="grid gap-2">
            <legend className="mb-2 font-semibold text-navy-900">Day</legend>
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              {dayKeys.slice(0, shown).map((d) => (
                <label
                  key={d}
                  className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                >
                  <input
                    type="radio"
                    name="booking-day"
                    value={d}
                    checked={day === d}
                    onChange={() => {
                      setDay(d);
                      setSlot(null);
                    }}
                    className="accent-brand-600"
                  />
                  <span>
                    <span className="sr-only">{longDayLabel(d)}</span>
                    <span aria-hidden="true">{dayLabel(d)}</span>
                  </span>
                </label>
              ))}
            </div>
            <div className="flex flex-wrap items-center gap-3 text-sm">
              {(dayKeys.length > shown || nextFrom !== null) && !loadError && (
                <button
                  type="button"
                  onClick={() => setShown((n) => n + DAYS_SHOWN)}
                  className="font-semibold text-brand-700 hover:underline"
                >
                  Show more days
                </button>
              )}
              <span role="status" className="text-slate-600">
                {needMore ? 'Loading more days…' : ''}
              </span>
            </div>
            {loadError && (
              <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
                <span>{MORE_FAILED}</span>
                <button
                  type="button"
                  onClick={retry}
                  className="rounded-md border border-slate-300 px-3 py-1 font-semibold text-navy-900 hover:bg-slate-50"
                >
                  Try again
                </button>
              </div>
            )}
          </fieldset>
          <fieldset className="grid gap-2">
            <legend className="mb-2 font-semibold text-navy-900">{day ? `Time on ${longDayLabel(day)}` : 'Time'}</legend>
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              {times.map((s) => {
                const local = localTime(s, timeZone, visitorZone);
                return (
                  <label
                    key={s}
                    className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                  >
                    <input
                      type="radio"
                      name="booking-time"
                      value={s}
                      checked={slot === s}
                      onChange={() => setSlot(s)}
                      className="accent-brand-600"
                    />
                    <span className="leading-tight">
                      {businessTime(s, timeZone)}
                      {local && <span className="block text-xs text-slate-600">{local}</span>}
                    </span>
                  </label>
                );
              })}
            </div>
          </fieldset>
          {availability.types.length > 1 && (
            <fieldset className="grid gap-2">
              <legend className="mb-2 font-semibold text-navy-900">How should we meet?</legend>
              <div className="flex gap-4">
                {availability.types.map((t) => (
                  <label key={t} className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="booking-type"
                      value={t}
                      checked={type === t}
                      onChange={() => setType(t)}
                      className="accent-brand-600"
                    />
                    {t === 'Call' ? 'Phone call' : 'Zoom'}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          {/* Kept in sight at the foot of the screen while the picker runs past it (a phone), so Confirm never needs a scroll. */}
          <div className="sticky bottom-0 z-10 -mx-2 grid gap-2 border-t border-slate-200 bg-white px-2 py-3">
            <p role="alert" className="text-sm font-medium text-red-700">
              {message}
            </p>
            <div className="flex flex-wrap items-center gap-3">
              <button
                type="submit"
                disabled={submitting}
                className="rounded-md bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
              >
                {submitting ? 'Confirming…' : 'Confirm'}
              </button>
              <button type="button" onClick={onSkip} className="rounded-md px-3 py-3 font-semibold text-brand-700 hover:underline">
                {skipLabel}
              </button>
            </div>
          </div>
        </form>
      )}
      {(!availability || dayKeys.length === 0) && (
        <button
          type="button"
          onClick={onSkip}
          className="justify-self-start rounded-md px-3 py-2 font-semibold text-brand-700 hover:underline"
        >
          {skipLabel}
        </button>
      )}
    </div>
  );
}
