import { useEffect } from 'react';
import { useAnalyticsNow } from '../api/get-analytics-now.ts';

const visitorsText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'visitor' : 'visitors'}`;

/**
 * Visitors on the site in the last few minutes and where they are, kept live by the
 * notification stream. Every count says what it counts ("3 visitors now", "2 visitors on
 * /privacy"): a bare number beside a path read as a fraction ("/ 3").
 */
export function NowCard() {
  const now = useAnalyticsNow();
  // Like the rest of Analytics, a failed load is only logged.
  useEffect(() => {
    if (now.isError) console.error('Loading the visitors now failed', now.error);
  }, [now.isError, now.error]);
  if (!now.data) return null;
  const { visitors, minutes, pages } = now.data;
  const headline = `${visitorsText(visitors)} now`;
  return (
    <section aria-labelledby="now-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 id="now-heading" className="text-lg font-semibold text-slate-900">
          Now
        </h2>
        <p
          role="status"
          aria-label={`${headline}, active in the last ${minutes} minutes`}
          className="text-sm text-slate-600"
          data-testid="now-summary"
        >
          <span className="text-2xl font-bold text-slate-900 tabular-nums" data-testid="visitors-now">
            {visitors.toLocaleString('en-US')}
          </span>{' '}
          <span className="font-medium text-slate-900">{visitors === 1 ? 'visitor' : 'visitors'} now</span>{' '}
          <span className="text-slate-500">(active in the last {minutes} minutes)</span>
        </p>
      </div>
      {pages.length > 0 ? (
        <ul aria-label="Pages they are on" className="mt-3 flex flex-wrap gap-2 text-sm">
          {pages.map((p) => (
            <li key={p.path} className="rounded-full bg-slate-100 px-3 py-1 text-slate-700" data-testid="page-now">
              <span className="font-semibold text-slate-900 tabular-nums">{visitorsText(p.visitors)}</span> on{' '}
              <span className="break-all">{p.path}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
