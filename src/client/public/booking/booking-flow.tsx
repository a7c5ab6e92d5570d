import { useEffect, useRef, useState } from 'react';
import type { PendingBooking, PublicBooking } from '#shared/schemas/booking';
import { AddToCalendar } from './add-to-calendar.tsx';
import { isPending } from './api.ts';
import { SlotPicker } from './slot-picker.tsx';
import { clockLabel, whenLabel } from './slot-format.ts';
import { bookedNote } from './told.ts';

/**
 * What the lead form turns into once it is sent: "Pick a time for your free call", then the
 * booked call with its private link. Loaded only then, so the landing page does not carry it.
 */
export function BookingFlow({ token, onFinished }: { token: string; onFinished: () => void }) {
  const [booked, setBooked] = useState<PublicBooking | PendingBooking | null>(null);
  if (booked)
    return isPending(booked) ? (
      <PendingCall booking={booked} onFinished={onFinished} />
    ) : (
      <BookedCall booking={booked} onFinished={onFinished} />
    );
  return (
    <SlotPicker
      token={token}
      mode="book"
      heading="Pick a time for your free call"
      onDone={setBooked}
      onSkip={onFinished}
      skipLabel="Skip, call me instead"
    />
  );
}

export function BookedCall({ booking, onFinished }: { booking: PublicBooking; onFinished?: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const call = booking.booking!;
  return (
    <div className="grid gap-4">
      <h3 ref={headingRef} tabIndex={-1} className="text-xl font-bold text-navy-900 focus:outline-none">
        Your free call is booked
      </h3>
      <p className="text-lg text-slate-800">
        {call.type === 'Zoom' ? 'Zoom call' : 'Phone call'} on <strong>{whenLabel(call.start, booking.time_zone)}</strong>.
      </p>
      <JoinLink url={call.join_url} />
      <p className="text-slate-600">{bookedNote(booking.emailed)}</p>
      {booking.calendar && <AddToCalendar calendar={booking.calendar} />}
      <p>
        <a href={booking.manage_path} className="font-semibold text-brand-700 hover:underline">
          Move or cancel your call
        </a>
        <span className="text-slate-600"> (your private link: keep it to yourself)</span>
      </p>
      <SendAnother onFinished={onFinished} />
    </div>
  );
}

/** A video call's link, when it has one (the host's own room or one made for the call). */
export function JoinLink({ url }: { url: string | null | undefined }) {
  if (!url) return null;
  return (
    <p className="text-slate-800">
      Join at{' '}
      <a href={url} target="_blank" rel="noopener noreferrer" className="font-semibold break-all text-brand-700 hover:underline">
        {url}
      </a>
    </p>
  );
}

/** "Call" or "Zoom" as a person says it. */
const callName = (type: string) => (type === 'Zoom' ? 'Zoom call' : 'phone call');

/**
 * Booking is busy (or the firm asks for it): the time waits for the visitor to click the link
 * we emailed. It is not theirs until then, and the page says so.
 */
export function PendingCall({ booking, onFinished }: { booking: PendingBooking; onFinished?: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const held = booking.pending!;
  const until = clockLabel(booking.expires_at, booking.time_zone);
  return (
    <div className="grid gap-4">
      <h3 ref={headingRef} tabIndex={-1} className="text-xl font-bold text-navy-900 focus:outline-none">
        Check your email to confirm your call
      </h3>
      <p className="text-lg text-slate-800">
        We have emailed you a link to confirm your {callName(held.type)} on <strong>{whenLabel(held.start, booking.time_zone)}</strong>.
      </p>
      <p className="text-slate-600">
        The time is yours once you confirm it: until then others may still book it. The link works for 30 minutes, until {until}.
      </p>
      <SendAnother onFinished={onFinished} />
    </div>
  );
}

/** Back to an empty form, when the page that shows the flow offers one. */
function SendAnother({ onFinished }: { onFinished: (() => void) | undefined }) {
  if (!onFinished) return null;
  return (
    <button
      type="button"
      onClick={onFinished}
      className="justify-self-start rounded-md border border-slate-300 px-4 py-2 font-semibold text-navy-900 hover:bg-slate-50"
    >
      Send another request
    </button>
  );
}
