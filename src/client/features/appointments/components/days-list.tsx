import { format } from 'date-fns';
import type { ReactNode } from 'react';
import type { Appointment } from '#shared/schemas/appointment';
import type { OutsideBlock } from '#shared/schemas/calendars';
import type { OutsideBlocks } from '../api/outside-busy.ts';
import { ISO_DAY, groupByDay } from '../calendar-month.ts';

export type DaysListProps = {
  /** The days shown, in order: a week from Sunday, or the Agenda's days. */
  days: Date[];
  appointments: readonly Appointment[];
  /** Today's date (yyyy-MM-dd, business time zone), marked with aria-current. */
  today: string;
  titleId: string;
  busy: boolean;
  onOpen: (appointment: Appointment) => void;
  /** The chosen person's busy times from their own calendars, by date (grey, no details). */
  outside?: OutsideBlocks | undefined;
};

/**
 * The Week's and the Agenda's frame: one list item per day, today marked, each day handed its
 * appointments in time order; the view draws the day (`day`) and styles the list and its items.
 */
export function DaysList({
  days,
  appointments,
  today,
  titleId,
  busy,
  outside,
  className,
  itemClassName,
  day: drawDay,
}: Omit<DaysListProps, 'onOpen'> & {
  className: string;
  itemClassName: string;
  day: (day: { date: Date; isToday: boolean; list: Appointment[]; blocks: readonly OutsideBlock[] }) => ReactNode;
}) {
  const byDay = groupByDay(appointments);
  return (
    <ol aria-labelledby={titleId} aria-busy={busy || undefined} className={className}>
      {days.map((date) => {
        const key = format(date, ISO_DAY);
        const isToday = key === today;
        return (
          <li
            key={key}
            data-date={key}
            aria-current={isToday ? 'date' : undefined}
            className={`${itemClassName} ${isToday ? 'bg-blue-50' : ''}`}
          >
            {drawDay({ date, isToday, list: byDay.get(key) ?? [], blocks: outside?.get(key) ?? [] })}
          </li>
        );
      })}
    </ol>
  );
}
