import type { Appointment } from '#shared/schemas/appointment';
import type { OutsideBlock } from '#shared/schemas/calendars';
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
        {appointment.status === 'cancelled' ? ' (cancelled)' : appointment.status === 'no_show' ? ' (no-show)' : ''}
      </span>
      <span className="block">{appointment.type}</span>
    </button>
  );
}

/** "9:00 AM", and midnight at a day's end. */
const blockClock = (time: string) => (time === '24:00' ? '12:00 AM' : formatClock(time));

/** A busy time from the chosen person's own calendar: grey, its time only (nothing else is read). */
export function OutsideBusyEntry({ block, layout }: { block: OutsideBlock; layout: Props['layout'] }) {
  const allDay = block.start === '00:00' && block.end === '24:00';
  const span = allDay ? 'All day' : `${blockClock(block.start)} – ${blockClock(block.end)}`;
  return (
    <div
      className={`rounded-md border border-dashed border-slate-400 bg-slate-200 px-2 py-1.5 text-xs leading-snug text-slate-800 ${
        layout === 'row' ? 'sm:flex sm:items-baseline sm:gap-4 sm:text-sm' : ''
      }`}
    >
      <span className={`block font-semibold ${layout === 'row' ? 'sm:w-44 sm:shrink-0' : ''}`}>{span}</span>
      <span className="block">Busy in their calendar</span>
    </div>
  );
}

/**
 * One day's appointments as a list of entries, with the chosen person's outside busy times
 * among them in time order, or what to say when it has none (the Week and Agenda views).
 */
export function DayAppointments({
  list,
  blocks = [],
  layout,
  onOpen,
  emptyClassName,
  listClassName,
}: {
  list: readonly Appointment[];
  blocks?: readonly OutsideBlock[];
  layout: Props['layout'];
  onOpen: Props['onOpen'];
  emptyClassName: string;
  listClassName: string;
}) {
  if (list.length === 0 && blocks.length === 0) return <p className={emptyClassName}>No appointments</p>;
  const items = [
    ...list.map((appointment) => ({ time: appointment.time, key: appointment.id, appointment })),
    ...blocks.map((block) => ({ time: block.start, key: `busy-${block.start}-${block.end}`, block })),
  ].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return (
    <ul className={listClassName}>
      {items.map((item) => (
        <li key={item.key}>
          {'appointment' in item ? (
            <CalendarEntry appointment={item.appointment} layout={layout} onOpen={onOpen} />
          ) : (
            <OutsideBusyEntry block={item.block} layout={layout} />
          )}
        </li>
      ))}
    </ul>
  );
}
