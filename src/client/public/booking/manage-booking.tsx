import { useEffect, useRef, useState } from 'react';
import type { PublicBooking } from '#shared/schemas/booking';
import { ApiError } from '#client/lib/api-client.ts';
import { useSiteConfig } from '#client/public/site-config-context.tsx';
import { AddToCalendar } from './add-to-calendar.tsx';
import { cancelCall, confirmCall, getBooking } from './api.ts';
import { BookingFlow, JoinLink } from './booking-flow.tsx';
import { SlotPicker } from './slot-picker.tsx';
import { clockLabel, whenLabel } from './slot-format.ts';
import { cancelledNotice, confirmedNotice, movedNotice } from './told.ts';

/** The token of /booking/<token>. */
const tokenFromPath = () => decodeURIComponent(window.location.pathname.split('/')[2] ?? '');
/** The code of an emailed confirmation link, /booking/<token>/confirm/<code>. */
const codeFromPath = () => {
  const parts = window.location.pathname.split('/');
  return parts[3] === 'confirm' && parts[4] ? decodeURIComponent(parts[4]) : null;
};

const callName = (type: string) => (type === 'Zoom' ? 'Zoom call' : 'phone call');

type View = 'show' | 'move' | 'confirm-cancel' | 'book' | 'confirm-hold';

/**
 * The booked call, with Move and Cancel until the minimum notice before it; after a
 * cancellation, a new time may be booked while the link is still good for booking.
 */
export function ManageBooking() {
  const { phone, phoneTel } = useSiteConfig();
  const token = tokenFromPath();
  const [code] = useState(codeFromPath);
  const [booking, setBooking] = useState<PublicBooking | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Opened from the emailed link: Confirm is one click away, but only a click confirms (mail scanners open links too).
  const [view, setView] = useState<View>(code ? 'confirm-hold' : 'show');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    getBooking(token).then(setBooking, (e: unknown) =>
      setError(
        e instanceof ApiError && e.status < 500
          ? 'This booking link is not valid or has expired.'
          : 'Your booking could not be loaded. Please reload the page.',
      ),
    );
  }, [token]);
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  if (error)
    return (
      <p role="alert" className="text-slate-700">
        {error}
      </p>
    );
  if (!booking)
    return (
      <p role="status" className="text-slate-600">
        Loading your booking…
      </p>
    );

  const call = booking.booking;
  const done = (next: PublicBooking, message: string) => {
    setBooking(next);
    setView('show');
    setNotice(message);
  };

  if (view === 'move' && call) {
    return (
      <SlotPicker
        token={token}
        mode="move"
        heading="Pick a new time"
        initialType={call.type}
        onDone={(next) => done(next as PublicBooking, movedNotice(next.emailed))}
        onSkip={() => setView('show')}
        skipLabel="Keep my time"
      />
    );
  }
  if (view === 'book') return <BookingFlow token={token} onFinished={() => window.location.reload()} />;

  const confirmHold = async () => {
    if (!code) return;
    setBusy(true);
    try {
      const next = await confirmCall(token, code);
      // The page's address goes back to the private link: the code has done its work.
      window.history.replaceState(null, '', booking.manage_path);
      done(next, confirmedNotice(next.emailed));
    } catch (e) {
      setNotice(e instanceof ApiError && e.status < 500 ? e.message : 'Something went wrong. Please try again.');
      if (e instanceof ApiError && e.status < 500) {
        // Expired, taken or booked meanwhile: show where things stand now.
        setView('show');
        getBooking(token).then(setBooking, () => undefined);
      }
    } finally {
      setBusy(false);
    }
  };

  if (view === 'confirm-hold' && call?.status !== 'scheduled') {
    const held = booking.pending;
    return (
      <div className="grid gap-4">
        {notice && (
          <p
            ref={noticeRef}
            tabIndex={-1}
            role="alert"
            className="rounded-md bg-red-50 px-4 py-3 font-medium text-red-800 focus:outline-none"
          >
            {notice}
          </p>
        )}
        <p className="text-lg text-slate-800">Hello {booking.first_name},</p>
        <p className="text-lg text-slate-800">
          {held ? (
            <>
              Confirm your {callName(held.type)} on <strong>{whenLabel(held.start, booking.time_zone)}</strong>.
            </>
          ) : (
            'Confirm the call you asked for.'
          )}
        </p>
        <button
          type="button"
          disabled={busy}
          onClick={() => void confirmHold()}
          className="justify-self-start rounded-md bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {busy ? 'Confirming…' : 'Confirm my call'}
        </button>
      </div>
    );
  }

  const cancel = async () => {
    setBusy(true);
    try {
      const next = await cancelCall(token);
      done(next, cancelledNotice(next.emailed));
    } catch (e) {
      setNotice(e instanceof ApiError && e.status < 500 ? e.message : 'Something went wrong. Please try again.');
      setView('show');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-4">
      {notice && (
        <p
          ref={noticeRef}
          tabIndex={-1}
          role="status"
          className="rounded-md bg-brand-50 px-4 py-3 font-medium text-navy-900 focus:outline-none"
        >
          {notice}
        </p>
      )}
      <p className="text-lg text-slate-800">Hello {booking.first_name},</p>
      {booking.pending && call?.status !== 'scheduled' ? (
        <p className="text-slate-700">
          We have emailed you a link to confirm your {callName(booking.pending.type)} on{' '}
          <strong>{whenLabel(booking.pending.start, booking.time_zone)}</strong>. The time is yours once you confirm it; the link works
          until {clockLabel(booking.pending.expires_at, booking.time_zone)}.
        </p>
      ) : !call ? (
        <p className="text-slate-700">You have not booked a time yet.</p>
      ) : call.status === 'cancelled' ? (
        <p className="text-slate-700">
          Your {call.type === 'Zoom' ? 'Zoom call' : 'phone call'} on <s>{whenLabel(call.start, booking.time_zone)}</s> is cancelled.
        </p>
      ) : call.status === 'completed' ? (
        <p className="text-slate-700">Your call on {whenLabel(call.start, booking.time_zone)} has taken place. Thank you!</p>
      ) : call.status === 'no_show' ? (
        <p className="text-slate-700">
          Your call on {whenLabel(call.start, booking.time_zone)} did not take place: we could not reach you. Reply to our email to find
          another time.
        </p>
      ) : (
        <>
          <p className="text-lg text-slate-800">
            Your {call.type === 'Zoom' ? 'Zoom call' : 'phone call'} is on <strong>{whenLabel(call.start, booking.time_zone)}</strong>.
          </p>
          <JoinLink url={call.join_url} />
        </>
      )}

      {view === 'confirm-cancel' ? (
        <div role="alertdialog" aria-labelledby="cancel-question" className="grid gap-3 rounded-md border border-red-200 bg-red-50 p-4">
          <p id="cancel-question" className="font-semibold text-navy-900">
            Cancel your call? This cannot be undone.
          </p>
          <div className="flex flex-wrap gap-3">
            <button
              type="button"
              disabled={busy}
              onClick={() => void cancel()}
              className="rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
            >
              {busy ? 'Cancelling…' : 'Yes, cancel it'}
            </button>
            <button
              type="button"
              autoFocus
              onClick={() => setView('show')}
              className="rounded-md border border-slate-300 bg-white px-4 py-2 font-semibold text-navy-900"
            >
              Keep it
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-3">
          {booking.can_change && (
            <>
              <button
                type="button"
                onClick={() => setView('move')}
                className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
              >
                Move my call
              </button>
              <button
                type="button"
                onClick={() => setView('confirm-cancel')}
                className="rounded-md border border-slate-300 px-4 py-2 font-semibold text-navy-900 hover:bg-slate-50"
              >
                Cancel my call
              </button>
            </>
          )}
          {booking.can_book && (
            <button
              type="button"
              onClick={() => setView('book')}
              className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
            >
              Book a time
            </button>
          )}
        </div>
      )}
      {call?.status === 'scheduled' && !booking.can_change && (
        <p className="text-slate-700">
          It is less than {booking.min_notice_hours} hours away, so it can no longer be changed here. To change it, call us at{' '}
          <a href={`tel:${phoneTel}`} className="font-semibold text-brand-700 hover:underline">
            {phone}
          </a>
          .
        </p>
      )}
      {call?.status === 'scheduled' && booking.calendar && <AddToCalendar calendar={booking.calendar} />}
    </div>
  );
}
