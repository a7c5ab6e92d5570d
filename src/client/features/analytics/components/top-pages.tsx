import type { AnalyticsSummary } from '#shared/schemas/analytics';
import { formatMinutesSeconds } from '../analytics-format.ts';

/** The 5 most viewed paths of the period (the server picks them) with their average time. */
export function TopPages({ pages }: { pages: AnalyticsSummary['top_pages'] }) {
  return (
    <section aria-labelledby="top-pages-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="top-pages-heading" className="text-lg font-semibold text-slate-900">
        Top Pages
      </h2>
      {pages.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No page views yet</p>
      ) : (
        <table className="mt-3 w-full table-fixed text-left text-sm">
          <thead className="text-xs text-slate-500 uppercase">
            <tr>
              <th scope="col" className="py-2 pr-2 font-medium">
                Page
              </th>
              <th scope="col" className="w-16 py-2 pr-2 text-right font-medium">
                Views
              </th>
              <th scope="col" className="w-24 py-2 text-right font-medium">
                Avg. Time
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {pages.map((page) => (
              <tr key={page.path} data-testid="top-page">
                <th scope="row" className="py-2 pr-2 font-medium break-all text-slate-900">
                  {page.path}
                </th>
                <td className="py-2 pr-2 text-right text-slate-700 tabular-nums">{page.views.toLocaleString('en-US')}</td>
                <td className="py-2 text-right text-slate-700 tabular-nums">{formatMinutesSeconds(page.avg_time_seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
