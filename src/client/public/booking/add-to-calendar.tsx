import type { PublicBooking } from '#shared/schemas/booking';

const linkClass =
  'inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-navy-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/**
 * **Add to calendar** for a booked call: the .ics file the server makes for the link (the
 * invitation emails' UID, so it updates the same event), and Google Calendar's and Outlook's
 * pages for a new event, filled in. Offered whether or not we emailed the invitation.
 */
export function AddToCalendar({ calendar }: { calendar: NonNullable<PublicBooking['calendar']> }) {
  return (
    <div role="group" aria-labelledby="add-to-calendar" className="grid gap-2">
      <p id="add-to-calendar" className="font-semibold text-navy-900">
        Add to calendar
      </p>
      <ul className="flex flex-wrap gap-2">
        <li>
          <a href={calendar.ics_path} download="free-call.ics" className={linkClass}>
            Calendar file (.ics)
          </a>
        </li>
        <li>
          <a href={calendar.google_url} target="_blank" rel="noopener noreferrer" className={linkClass}>
            Google Calendar<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
        <li>
          <a href={calendar.outlook_url} target="_blank" rel="noopener noreferrer" className={linkClass}>
            Outlook<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
      </ul>
    </div>
  );
}
