import type { AnalyticsPipeline } from '#shared/schemas/analytics-pipeline';

const number = (n: number) => n.toLocaleString('en-US');
const leadsText = (n: number) => `${number(n)} ${n === 1 ? 'lead' : 'leads'}`;

/**
 * How far the period's leads got: each open stage in the board's order, then Won, with the
 * leads that reached it (or a later stage: a lead that skipped a stage passed it, and one that
 * went back keeps the furthest it reached) and the share of them that went on to the next.
 * Lost is not a step (docs/product-rules.md, "Analytics").
 */
export function StageConversionTable({ data, period, loading }: { data: AnalyticsPipeline | undefined; period: string; loading: boolean }) {
  return (
    <section aria-labelledby="stage-conversion-heading" className="min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="stage-conversion-heading" className="text-lg font-semibold text-slate-900">
        Stage conversion
      </h2>
      <p className="text-xs text-slate-500">
        {data && data.conversion.leads > 0 ? `The ${leadsText(data.conversion.leads)}` : 'Leads'} that came in {period}, and how far each
        has got since. A lead counts at every stage up to the furthest it reached, even one it skipped or went back from.
      </p>
      {!data ? (
        <p className="py-6 text-center text-sm text-slate-500">
          {loading ? 'Loading the stage conversion...' : 'The stage conversion is not available right now.'}
        </p>
      ) : data.conversion.leads === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No leads in this period</p>
      ) : (
        <div className="mt-3 overflow-x-auto" aria-busy={loading || undefined}>
          <table className="w-full text-left text-sm" data-testid="stage-conversion-table">
            <caption className="sr-only">
              The period's leads by the furthest stage they reached, and the share that went on to the next stage
            </caption>
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th scope="col" className="py-2 pr-2 font-medium">
                  Stage
                </th>
                <th scope="col" className="py-2 pr-2 text-right font-medium">
                  Reached
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  To the next stage
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.conversion.steps.map((s) => (
                <tr key={s.stage_id ?? 'won'} data-testid="stage-conversion-row">
                  <th scope="row" className="py-2 pr-2 font-medium break-words text-slate-900">
                    {s.name}
                  </th>
                  <td className="py-2 pr-2 text-right tabular-nums">{number(s.reached)}</td>
                  <td className="py-2 text-right tabular-nums">
                    {s.to_next_percent === null ? '—' : `${s.to_next_percent.toLocaleString('en-US')}%`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
