import { format, formatDistanceToNowStrict, isValid, parseISO } from 'date-fns';
import { useEffect, useState } from 'react';

/** The exact moment shown on hover: "Nov 23, 2026, 3:05 PM". */
export const EXACT_TIME_FORMAT = 'MMM d, yyyy, h:mm a';

/** "just now", "3 hours ago", "in 2 days". */
export function relativeTime(date: Date, now: Date = new Date()): string {
  if (Math.abs(now.getTime() - date.getTime()) < 45_000) return 'just now';
  return formatDistanceToNowStrict(date, { addSuffix: true });
}

/** Re-renders every minute, so "3 minutes ago" does not stay put while the page is open. */
function useMinuteTick() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), 60_000);
    return () => clearInterval(timer);
  }, []);
}

/** When something happened, relative to now, with the exact time on hover and for machines. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  useMinuteTick();
  const date = parseISO(iso);
  if (!isValid(date)) return <span className={className}>N/A</span>;
  const exact = format(date, EXACT_TIME_FORMAT);
  return (
    <time dateTime={date.toISOString()} title={exact} className={className}>
      {relativeTime(date)}
    </time>
  );
}
