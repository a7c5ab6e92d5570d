import { format } from 'date-fns';
import { DayAppointments } from './calendar-entry.tsx';
import { DaysList, type DaysListProps } from './days-list.tsx';

/** The Agenda: day after day (seven from its date), each day's appointments in time order, full width. */
export function AgendaList({ onOpen, ...frame }: DaysListProps) {
  return (
    <DaysList
      {...frame}
      className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm"
      itemClassName="px-3 py-3 sm:px-4"
      day={({ date, isToday, list, blocks }) => (
        <>
          <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold text-slate-900">
            {format(date, 'EEEE, MMMM d')}
            {isToday ? <span className="rounded-full bg-blue-700 px-2 py-0.5 text-xs font-medium text-white">Today</span> : null}
          </h3>
          <DayAppointments
            list={list}
            blocks={blocks}
            layout="row"
            onOpen={onOpen}
            emptyClassName="text-sm text-slate-600"
            listClassName="space-y-1.5"
          />
        </>
      )}
    />
  );
}
