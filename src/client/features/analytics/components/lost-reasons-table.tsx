import type { AnalyticsPipeline } from '#shared/schemas/analytics-pipeline';
import { formatCents } from '#client/lib/money.ts';

const number = (n: number) => n.toLocaleString('en-US');

/**
 * Why the period's deals were lost: each reason with its deals, their share and the fees they
 * would have brought, most deals first (the server's order), and the period's total. A deal
 * counts when it was lost (a move between two Lost stages is not a new loss) and only while it
 * is still lost (docs/product-rules.md, "Analytics").
 */
export function LostReasonsTable({ data, period, loading }: { data: AnalyticsPipeline | undefined; period: string; loading: boolean }) {
  return (
    <section aria-labelledby="lost-reasons-heading" className="min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="lost-reasons-heading" className="text-lg font-semibold text-slate-900">
        Lost reasons
      </h2>
      <p className="text-xs text-slate-500">Deals lost {period} and still lost, by the reason given.</p>
      {!data ? (
        <p className="py-6 text-center text-sm text-slate-500">
          {loading ? 'Loading lost reasons...' : 'Lost reasons are not available right now.'}
        </p>
      ) : data.lost.reasons.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No deals lost in this period</p>
      ) : (
        <div className="mt-3 overflow-x-auto" aria-busy={loading || undefined}>
          <table className="w-full text-left text-sm" data-testid="lost-reasons-table">
            <caption className="sr-only">Deals lost in the period by reason, with their share and the estimated fees lost</caption>
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th scope="col" className="py-2 pr-2 font-medium">
                  Reason
                </th>
                <th scope="col" className="py-2 pr-2 text-right font-medium">
                  Deals
                </th>
                <th scope="col" className="py-2 pr-2 text-right font-medium">
                  Share
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Fees lost
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.lost.reasons.map((r) => (
                <tr key={r.reason} data-testid="lost-reason-row">
                  <th scope="row" className="py-2 pr-2 font-medium break-words text-slate-900">
                    {r.reason}
                  </th>
                  <td className="py-2 pr-2 text-right tabular-nums">{number(r.deals)}</td>
                  <td className="py-2 pr-2 text-right tabular-nums">{r.share_percent.toLocaleString('en-US')}%</td>
                  <td className="py-2 text-right tabular-nums">{formatCents(r.fees_cents)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t border-slate-200 font-semibold text-slate-900">
              <tr>
                <th scope="row" className="py-2 pr-2">
                  Total
                </th>
                <td className="py-2 pr-2 text-right tabular-nums">{number(data.lost.deals)}</td>
                <td className="py-2 pr-2 text-right tabular-nums">100%</td>
                <td className="py-2 text-right tabular-nums">{formatCents(data.lost.fees_cents)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
