import { useEffect } from 'react';
import { useAnalyticsNow } from '../api/get-analytics-now.ts';

/** Visitors on the site in the last few minutes and where they are, kept live by the notification stream. */
export function NowCard() {
  const now = useAnalyticsNow();
  // Like the rest of Analytics, a failed load is only logged.
  useEffect(() => {
    if (now.isError) console.error('Loading the visitors now failed', now.error);
  }, [now.isError, now.error]);
  if (!now.data) return null;
  const { visitors, minutes, pages } = now.data;
  return (
    <section aria-labelledby="now-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 id="now-heading" className="text-lg font-semibold text-slate-900">
          Now
        </h2>
        <p className="text-sm text-slate-600" aria-live="polite">
          <span className="text-2xl font-bold text-slate-900 tabular-nums" data-testid="visitors-now">
            {visitors.toLocaleString('en-US')}
          </span>{' '}
          {visitors === 1 ? 'visitor' : 'visitors'} in the last {minutes} minutes
        </p>
      </div>
      {pages.length > 0 ? (
        <ul className="mt-3 flex flex-wrap gap-2 text-sm">
          {pages.map((p) => (
            <li key={p.path} className="rounded-full bg-slate-100 px-3 py-1 break-all text-slate-700" data-testid="page-now">
              {p.path} <span className="font-semibold tabular-nums text-slate-900">{p.visitors}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
