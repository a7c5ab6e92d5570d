import type { Appointment } from '#shared/schemas/appointment';
import { calendarLabel, cancelledClass, formatClock } from '../calendar-month.ts';
import { timeSpan } from '../calendar-views.ts';
import { TYPE_COLORS } from './appointment-type-badge.tsx';

type Props = { appointment: Appointment; onOpen: (appointment: Appointment) => void; layout: 'column' | 'row' };

/**
 * An appointment in the Week (`column`: a narrow day) and Agenda (`row`) views: a button opening
 * its details, coloured by type, with its time (and end, in the Agenda), the lead's whole name
 * (wrapped, never cut) and the type in words. Its accessible name is the calendar's label and
 * the type: "9:00 AM - Jane Doe, Zoom".
 */
export function CalendarEntry({ appointment, onOpen, layout }: Props) {
  const row = layout === 'row';
  return (
    <button
      type="button"
      onClick={() => onOpen(appointment)}
      aria-label={`${calendarLabel(appointment)}, ${appointment.type}`}
      className={`block w-full rounded-md px-2 py-1.5 text-left text-xs leading-snug hover:brightness-95 ${TYPE_COLORS[appointment.type]} ${
        row ? 'sm:flex sm:items-baseline sm:gap-4 sm:text-sm' : ''
      }`}
    >
      <span className={`block font-semibold ${row ? 'sm:w-44 sm:shrink-0' : ''} ${cancelledClass(appointment)}`}>
        {row ? timeSpan(appointment) : formatClock(appointment.time)}
      </span>
      <span className={`block font-medium [overflow-wrap:anywhere] ${row ? 'sm:flex-1' : ''} ${cancelledClass(appointment)}`}>
        {appointment.lead?.full_name ?? 'Unknown'}
        {appointment.status === 'cancelled' ? ' (cancelled)' : ''}
      </span>
      <span className="block">{appointment.type}</span>
    </button>
  );
}

/** One day's appointments as a list of entries, or what to say when it has none (the Week and Agenda views). */
export function DayAppointments({
  list,
  layout,
  onOpen,
  emptyClassName,
  listClassName,
}: {
  list: readonly Appointment[];
  layout: Props['layout'];
  onOpen: Props['onOpen'];
  emptyClassName: string;
  listClassName: string;
}) {
  if (list.length === 0) return <p className={emptyClassName}>No appointments</p>;
  return (
    <ul className={listClassName}>
      {list.map((appointment) => (
        <li key={appointment.id}>
          <CalendarEntry appointment={appointment} layout={layout} onOpen={onOpen} />
        </li>
      ))}
    </ul>
  );
}
