import { format, isSameMonth } from 'date-fns';
import { useState } from 'react';
import type { Appointment } from '#shared/schemas/appointment';
import { ISO_DAY, calendarLabel, cancelledClass, formatClock, groupByDay, weekdayNames } from '../calendar-month.ts';
import type { OutsideBlocks } from '../api/outside-busy.ts';
import { DayOverflowPopover } from './day-overflow-popover.tsx';
import { TYPE_COLORS } from './appointment-type-badge.tsx';

/** A cell lists 3 appointments, then "+N more" (docs/product-rules.md, "Appointments"). */
export const APPOINTMENTS_PER_CELL = 3;

type Props = {
  month: Date;
  weeks: Date[][];
  appointments: readonly Appointment[];
  today: string;
  titleId: string;
  busy: boolean;
  onOpen: (appointment: Appointment) => void;
  /** The chosen person's busy times from their own calendars, by date (a grey mark per day). */
  outside?: OutsideBlocks | undefined;
};

const WEEKDAYS = weekdayNames();

/**
 * The month as a table (weeks as rows, Sunday first), so screen readers announce each cell
 * with its weekday column and full date.
 */
export function MonthCalendar({ month, weeks, appointments, today, titleId, busy, onOpen, outside }: Props) {
  const byDay = groupByDay(appointments);
  return (
    // Not clipped (no overflow-hidden): an appointment's full text shows below it on hover and focus.
    <div className="relative rounded-lg border border-slate-200 bg-white shadow-sm">
      <table aria-labelledby={titleId} aria-busy={busy || undefined} className="w-full table-fixed border-collapse">
        <thead>
          <tr>
            {WEEKDAYS.map((day) => (
              <th
                key={day.short}
                scope="col"
                abbr={day.long}
                className="border-b border-slate-200 bg-slate-50 py-2 text-xs font-semibold text-slate-600 first:rounded-tl-lg last:rounded-tr-lg"
              >
                {day.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={format(week[0]!, ISO_DAY)}>
              {week.map((day, column) => {
                const key = format(day, ISO_DAY);
                return (
                  <DayCell
                    key={key}
                    day={day}
                    tipAtEnd={column >= 4}
                    inMonth={isSameMonth(day, month)}
                    isToday={key === today}
                    appointments={byDay.get(key) ?? []}
                    outside={outside?.get(key)?.length ?? 0}
                    onOpen={onOpen}
                  />
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type CellProps = {
  day: Date;
  inMonth: boolean;
  isToday: boolean;
  /** The right-hand days open the full text leftwards, so it stays on a phone's screen. */
  tipAtEnd: boolean;
  appointments: Appointment[];
  /** How many busy times the chosen person's own calendars hold that day. */
  outside: number;
  onOpen: (appointment: Appointment) => void;
};

function DayCell({ day, inMonth, isToday, tipAtEnd, appointments, outside, onOpen }: CellProps) {
  const shown = appointments.slice(0, APPOINTMENTS_PER_CELL);
  const hidden = appointments.length - shown.length;
  return (
    <td
      aria-current={isToday ? 'date' : undefined}
      data-date={format(day, ISO_DAY)}
      className={`h-24 border border-slate-200 p-0.5 align-top sm:h-28 sm:p-1 ${isToday ? 'bg-blue-50' : inMonth ? 'bg-white' : 'bg-slate-50'}`}
    >
      <div className="flex justify-end">
        <span
          aria-hidden="true"
          className={`inline-flex size-6 items-center justify-center rounded-full text-xs ${
            isToday ? 'bg-blue-700 font-bold text-white' : inMonth ? 'text-slate-900' : 'text-slate-500'
          }`}
        >
          {format(day, 'd')}
        </span>
        <span className="sr-only">
          {format(day, 'EEEE, MMMM d, yyyy')}
          {isToday ? ' (today)' : ''}
        </span>
      </div>
      {outside > 0 ? (
        <p className="truncate rounded border border-dashed border-slate-400 bg-slate-200 px-1 text-[11px] leading-4 text-slate-800">
          Busy{outside > 1 ? ` ×${outside}` : ''}
          <span className="sr-only"> in their calendar</span>
        </p>
      ) : null}
      <ul className="mt-0.5 space-y-0.5">
        {shown.map((appointment) => (
          <li key={appointment.id}>
            <MonthEntry appointment={appointment} tipAtEnd={tipAtEnd} onOpen={onOpen} />
          </li>
        ))}
      </ul>
      {hidden > 0 ? <DayOverflowPopover day={day} hidden={hidden} appointments={appointments} onOpen={onOpen} /> : null}
    </td>
  );
}

/**
 * One appointment in a day cell: its start time and the lead's name, cut to the cell (below
 * 1280 px, where a cell is narrow, "9:00a" over the name on up to two lines; "9:00 AM - Jane
 * Doe" on one line wider), never the name cut to nothing. The full "h:mm a - Lead Name" is its accessible name and shows
 * under it on hover and keyboard focus (Escape hides it: WCAG 1.4.13).
 */
function MonthEntry({
  appointment,
  tipAtEnd,
  onOpen,
}: {
  appointment: Appointment;
  tipAtEnd: boolean;
  onOpen: (appointment: Appointment) => void;
}) {
  const [tipHidden, setTipHidden] = useState(false);
  const label = calendarLabel(appointment);
  return (
    <button
      type="button"
      onClick={() => onOpen(appointment)}
      onKeyDown={(event) => event.key === 'Escape' && setTipHidden(true)}
      onBlur={() => setTipHidden(false)}
      onMouseLeave={() => setTipHidden(false)}
      aria-label={label}
      // Raised while hovered or focused, so its full text is drawn over the appointments below.
      className={`group relative block w-full rounded px-0.5 py-0.5 text-left text-[10px] leading-tight hover:z-20 hover:brightness-95 focus-visible:z-20 sm:px-1 sm:text-xs ${TYPE_COLORS[appointment.type]}`}
    >
      <span className={`block ${cancelledClass(appointment)}`}>
        <span className="block truncate sm:font-semibold xl:hidden">{formatClock(appointment.time, true)}</span>
        <span className="line-clamp-2 break-words xl:hidden">{appointment.lead?.full_name ?? 'Unknown'}</span>
        <span className="hidden truncate xl:block">{label}</span>
      </span>
      <span
        aria-hidden="true"
        data-testid="appointment-full-text"
        className={`absolute top-full z-30 mt-1 w-max max-w-44 rounded bg-slate-900 px-2 py-1 text-xs font-normal whitespace-normal text-white shadow-lg ${
          tipAtEnd ? 'right-0' : 'left-0'
        } ${tipHidden ? 'hidden' : 'hidden group-hover:block group-focus-visible:block'}`}
      >
        {label}
      </span>
    </button>
  );
}
