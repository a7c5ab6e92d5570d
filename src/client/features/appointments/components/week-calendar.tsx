import { format } from 'date-fns';
import { DayAppointments } from './calendar-entry.tsx';
import { DaysList, type DaysListProps } from './days-list.tsx';

/**
 * The Week: seven days side by side from 640 px (Sunday first), one under the other on a
 * phone, each with every appointment of the day in time order (no "+N more": a week has room).
 */
export function WeekCalendar({ onOpen, ...frame }: DaysListProps) {
  return (
    <DaysList
      {...frame}
      className="grid grid-cols-1 divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm sm:grid-cols-7 sm:divide-x sm:divide-y-0"
      itemClassName="min-w-0 p-2 sm:min-h-64 sm:p-1.5"
      day={({ date, isToday, list, blocks }) => (
        <>
          <h3 className="mb-1.5 flex items-center gap-1.5 text-sm font-semibold text-slate-700">
            <span
              className={`inline-flex h-6 min-w-6 items-center justify-center rounded-full px-1 ${isToday ? 'bg-blue-700 text-white' : ''}`}
            >
              <span className="sm:hidden">{format(date, 'EEEE, MMMM d')}</span>
              <span aria-hidden="true" className="hidden sm:inline">
                {format(date, 'EEE d')}
              </span>
              <span className="hidden sm:inline sm:sr-only">{format(date, 'EEEE, MMMM d')}</span>
            </span>
            {isToday ? <span className="text-xs font-medium text-blue-800">Today</span> : null}
          </h3>
          <DayAppointments
            list={list}
            blocks={blocks}
            layout="column"
            onOpen={onOpen}
            emptyClassName="text-xs text-slate-600 sm:sr-only"
            listClassName="space-y-1"
          />
        </>
      )}
    />
  );
}
