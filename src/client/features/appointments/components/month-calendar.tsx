import { format, isSameMonth } from 'date-fns';
import type { Appointment } from '#shared/schemas/appointment';
import { ISO_DAY, calendarLabel, cancelledClass, formatClock, groupByDay, weekdayNames } from '../calendar-month.ts';
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
};

const WEEKDAYS = weekdayNames();

/**
 * The month as a table (weeks as rows, Sunday first), so screen readers announce each cell
 * with its weekday column and full date.
 */
export function MonthCalendar({ month, weeks, appointments, today, titleId, busy, onOpen }: Props) {
  const byDay = groupByDay(appointments);
  return (
    <div className="relative overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
      <table aria-labelledby={titleId} aria-busy={busy || undefined} className="w-full table-fixed border-collapse">
        <thead>
          <tr>
            {WEEKDAYS.map((day) => (
              <th key={day.short} scope="col" abbr={day.long} className="border-b border-slate-200 bg-slate-50 py-2 text-xs font-semibold text-slate-600">
                {day.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={format(week[0]!, ISO_DAY)}>
              {week.map((day) => {
                const key = format(day, ISO_DAY);
                return (
                  <DayCell
                    key={key}
                    day={day}
                    inMonth={isSameMonth(day, month)}
                    isToday={key === today}
                    appointments={byDay.get(key) ?? []}
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

type CellProps = { day: Date; inMonth: boolean; isToday: boolean; appointments: Appointment[]; onOpen: (appointment: Appointment) => void };

function DayCell({ day, inMonth, isToday, appointments, onOpen }: CellProps) {
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
      <ul className="mt-0.5 space-y-0.5">
        {shown.map((appointment) => (
          <li key={appointment.id}>
            <button
              type="button"
              onClick={() => onOpen(appointment)}
              // A phone's cell is ~45 px wide: it shows the start time only, the name stays in the label.
              aria-label={calendarLabel(appointment)}
              className={`block w-full truncate rounded px-0.5 py-0.5 text-left text-[10px] leading-tight hover:brightness-95 sm:px-1 sm:text-xs ${TYPE_COLORS[appointment.type]} ${cancelledClass(appointment)}`}
            >
              <span className="sm:hidden">{formatClock(appointment.time, true)}</span>
              <span className="hidden sm:inline">{calendarLabel(appointment)}</span>
            </button>
          </li>
        ))}
      </ul>
      {hidden > 0 ? <DayOverflowPopover day={day} hidden={hidden} appointments={appointments} onOpen={onOpen} /> : null}
    </td>
  );
}
