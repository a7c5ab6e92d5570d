import { format } from 'date-fns';
import type { Appointment } from '#shared/schemas/appointment';
import { ISO_DAY, groupByDay } from '../calendar-month.ts';
import { DayAppointments } from './calendar-entry.tsx';

type Props = {
  /** The days shown, in order: a week from Sunday, or the Agenda's days. */
  days: Date[];
  appointments: readonly Appointment[];
  today: string;
  titleId: string;
  busy: boolean;
  onOpen: (appointment: Appointment) => void;
};

/**
 * The Week: seven days side by side from 640 px (Sunday first), one under the other on a
 * phone, each with every appointment of the day in time order (no "+N more": a week has room).
 */
export function WeekCalendar({ days, appointments, today, titleId, busy, onOpen }: Props) {
  const byDay = groupByDay(appointments);
  return (
    <ol
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      className="grid grid-cols-1 divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm sm:grid-cols-7 sm:divide-x sm:divide-y-0"
    >
      {days.map((day) => {
        const key = format(day, ISO_DAY);
        const isToday = key === today;
        const list = byDay.get(key) ?? [];
        return (
          <li
            key={key}
            data-date={key}
            aria-current={isToday ? 'date' : undefined}
            className={`min-w-0 p-2 sm:min-h-64 sm:p-1.5 ${isToday ? 'bg-blue-50' : ''}`}
          >
            <h3 className="mb-1.5 flex items-center gap-1.5 text-sm font-semibold text-slate-700">
              <span
                className={`inline-flex h-6 min-w-6 items-center justify-center rounded-full px-1 ${isToday ? 'bg-blue-700 text-white' : ''}`}
              >
                <span className="sm:hidden">{format(day, 'EEEE, MMMM d')}</span>
                <span aria-hidden="true" className="hidden sm:inline">
                  {format(day, 'EEE d')}
                </span>
                <span className="hidden sm:inline sm:sr-only">{format(day, 'EEEE, MMMM d')}</span>
              </span>
              {isToday ? <span className="text-xs font-medium text-blue-800">Today</span> : null}
            </h3>
            <DayAppointments
              list={list}
              layout="column"
              onOpen={onOpen}
              emptyClassName="text-xs text-slate-600 sm:sr-only"
              listClassName="space-y-1"
            />
          </li>
        );
      })}
    </ol>
  );
}
