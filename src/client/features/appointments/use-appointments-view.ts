import { addMonths, format } from 'date-fns';
import { useCallback, useState, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { MONTH_PARAM, parseDay, parseMonth, todayIn } from './calendar-month.ts';

export type AppointmentsView = 'calendar' | 'list';
export const VIEW_STORAGE_KEY = 'appointments-view';

function readStoredView(): AppointmentsView {
  try {
    return window.localStorage.getItem(VIEW_STORAGE_KEY) === 'list' ? 'list' : 'calendar';
  } catch {
    return 'calendar'; // storage blocked: the default view
  }
}

/** Calendar (the default) or list; the choice is kept in localStorage, so it survives a reload. */
export function useStoredView() {
  const [view, setView] = useState<AppointmentsView>(readStoredView);
  const choose = useCallback((next: AppointmentsView) => {
    setView(next);
    try {
      window.localStorage.setItem(VIEW_STORAGE_KEY, next);
    } catch {
      // Not kept across reloads, still switched now.
    }
  }, []);
  return [view, choose] as const;
}

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
 * The month shown, from `?month=yyyy-MM` (so a reload or a shared link keeps it); without
 * one, the month of today. Previous / next / Today write the URL.
 */
export function useVisibleMonth(today: string) {
  const [params, setParams] = useSearchParams();
  const todayDate = parseDay(today) ?? new Date();
  const month = parseMonth(params.get('month')) ?? new Date(todayDate.getFullYear(), todayDate.getMonth(), 1);

  const setMonth = (next: Date | null) =>
    void setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next) updated.set('month', format(next, MONTH_PARAM));
        else updated.delete('month');
        return updated;
      },
      { replace: true },
    );

  return {
    month,
    previous: () => setMonth(addMonths(month, -1)),
    next: () => setMonth(addMonths(month, 1)),
    today: () => setMonth(null),
  };
}
