import { format } from 'date-fns';
import { useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { useMediaQuery } from '#client/lib/use-media-query.ts';
import { ISO_DAY, parseDay, todayIn } from './calendar-month.ts';
import { PHONE_QUERY, defaultView, parseView, parseViewDate, shiftDate, type AppointmentsView } from './calendar-views.ts';

// Re-read the day each minute, so the highlight moves at midnight.
const subscribeMinutes = (onChange: () => void) => {
  const timer = setInterval(onChange, 60_000);
  return () => clearInterval(timer);
};

/** Today's 'yyyy-mm-dd' in the business time zone (the viewer's until the server has named it). */
export function useToday(timeZone: string | undefined): string {
  return useSyncExternalStore(
    subscribeMinutes,
    () => todayIn(timeZone),
    () => todayIn(timeZone),
  );
}

/**
 * The view and the day it is around, from the URL (`?view=week&date=2026-11-26`), so a reload,
 * a shared link and back / forward keep them. Without a valid one: the Agenda on a phone, the
 * Month wider, and today (an older link's `?month=2026-04` still opens that month). Every
 * change is a history entry; Today drops the date from the URL.
 */
export function useAppointmentsView(today: string) {
  const [params, setParams] = useSearchParams();
  const phone = useMediaQuery(PHONE_QUERY);
  const view = parseView(params.get('view')) ?? defaultView(phone);
  const date = parseViewDate(params.get('date'), params.get('month')) ?? parseDay(today) ?? new Date();

  const write = (changes: { view?: AppointmentsView; date?: Date | null }) =>
    void setParams((previous) => {
      const updated = new URLSearchParams(previous);
      if (changes.view) updated.set('view', changes.view);
      // A new view keeps the day the URL named (an older `?month=` becomes its `date`), or none.
      const day = changes.date === undefined ? parseViewDate(previous.get('date'), previous.get('month')) && date : changes.date;
      if (day) updated.set('date', format(day, ISO_DAY));
      else updated.delete('date');
      updated.delete('month');
      return updated;
    });

  // The Person filter: one team member's appointments (their account id), or everyone's.
  const person = params.get('person') ?? '';
  const setPerson = (id: string) =>
    void setParams((previous) => {
      const updated = new URLSearchParams(previous);
      if (id) updated.set('person', id);
      else updated.delete('person');
      return updated;
    });

  return {
    view,
    date,
    person,
    setPerson,
    setView: (next: AppointmentsView) => write({ view: next }),
    previous: () => write({ date: shiftDate(view, date, -1) }),
    next: () => write({ date: shiftDate(view, date, 1) }),
    today: () => write({ date: null }),
  };
}
