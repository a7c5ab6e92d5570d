import { format } from 'date-fns';
import type { Appointment } from '#shared/schemas/appointment';
import { ISO_DAY, groupByDay } from '../calendar-month.ts';
import { DayAppointments } from './calendar-entry.tsx';

type Props = {
  days: Date[];
  appointments: readonly Appointment[];
  today: string;
  titleId: string;
  busy: boolean;
  onOpen: (appointment: Appointment) => void;
};

/** The Agenda: day after day (seven from its date), each day's appointments in time order, full width. */
export function AgendaList({ days, appointments, today, titleId, busy, onOpen }: Props) {
  const byDay = groupByDay(appointments);
  return (
    <ol
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm"
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
            className={`px-3 py-3 sm:px-4 ${isToday ? 'bg-blue-50' : ''}`}
          >
            <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold text-slate-900">
              {format(day, 'EEEE, MMMM d')}
              {isToday ? <span className="rounded-full bg-blue-700 px-2 py-0.5 text-xs font-medium text-white">Today</span> : null}
            </h3>
            <DayAppointments list={list} layout="row" onOpen={onOpen} emptyClassName="text-sm text-slate-600" listClassName="space-y-1.5" />
          </li>
        );
      })}
    </ol>
  );
}
