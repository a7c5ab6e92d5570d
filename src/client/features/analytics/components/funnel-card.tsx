import { FUNNEL_CONVERSATION } from '#shared/constants';
import type { AnalyticsFunnel } from '#shared/schemas/analytics-report';

const STEPS = [
  { key: 'visitors', label: 'Visitors' },
  { key: 'saw_form', label: 'Saw the form' },
  { key: 'started_form', label: 'Started the form' },
  { key: 'sent', label: 'Sent the form' },
  { key: 'booked', label: FUNNEL_CONVERSATION.label },
  { key: 'converted', label: 'Became clients' },
] as const satisfies { key: keyof AnalyticsFunnel; label: string }[];

const percent = (part: number, whole: number) => (whole > 0 ? `${(Math.round((part / whole) * 1000) / 10).toLocaleString('en-US')}%` : '—');
const clients = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'client' : 'clients'}`;
const are = (n: number) => (n === 1 ? 'is' : 'are');

/** The clients the funnel leaves out, and where they are counted instead. */
export function outsideFunnelText({ clients_without_call: call, clients_without_visit: visit }: AnalyticsFunnel): string | undefined {
  const parts = [
    call > 0 && `${clients(call)} won ${FUNNEL_CONVERSATION.without} this period ${are(call)} not in the funnel.`,
    visit > 0 &&
      `${clients(visit)} won this period with no recorded visit (typed in, imported or not tracked) ${are(visit)} not in the funnel.`,
  ].filter((p): p is string => typeof p === 'string');
  return parts.length > 0 ? `${parts.join(' ')} The Sources table counts every client.` : undefined;
}

/**
 * From visitor to client: each step's visitors, its share of the step before, and the bar's
 * width as a share of all visitors, so the drop-off between steps shows. Each step counts only
 * visitors of the step before, so none is larger than the one before it; clients won outside
 * it are said below it.
 */
export function FunnelCard({ funnel, period }: { funnel: AnalyticsFunnel; period: string }) {
  const outside = outsideFunnelText(funnel);
  return (
    <section aria-labelledby="funnel-heading" className="min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="funnel-heading" className="text-lg font-semibold text-slate-900">
        Funnel
      </h2>
      <p className="text-xs text-slate-500">
        Visitors whose first visit was {period}, and what they did since. Each step counts only visitors of the step before.
      </p>
      {funnel.visitors === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No visitors in this period</p>
      ) : (
        <ol className="mt-4 space-y-3" data-testid="funnel">
          {STEPS.map((step, i) => {
            const value = funnel[step.key];
            const before = i > 0 ? funnel[STEPS[i - 1]!.key] : value;
            return (
              <li key={step.key} data-testid="funnel-step">
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <span className="font-medium text-slate-800">{step.label}</span>
                  <span className="text-slate-700 tabular-nums">
                    <span className="font-semibold text-slate-900" data-testid={`funnel-${step.key}`}>
                      {value.toLocaleString('en-US')}
                    </span>
                    {i > 0 && <span className="ml-2 text-xs text-slate-500">{percent(value, before)} of the step before</span>}
                  </span>
                </div>
                <div className="mt-1 h-2.5 rounded-full bg-slate-100" aria-hidden="true">
                  <div
                    className="h-2.5 rounded-full bg-blue-600"
                    style={{ width: `${funnel.visitors > 0 ? Math.max(0.5, (value / funnel.visitors) * 100) : 0}%` }}
                  />
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {funnel.no_shows > 0 && (
        <p className="mt-4 text-xs text-slate-600" data-testid="funnel-no-shows">
          {funnel.no_shows.toLocaleString('en-US')} {funnel.no_shows === 1 ? 'visitor' : 'visitors'} who sent the form booked a call but did
          not come (marked no-show), so {funnel.no_shows === 1 ? 'is' : 'are'} not counted under “{FUNNEL_CONVERSATION.label}”.
        </p>
      )}
      {outside && (
        <p className="mt-4 text-xs text-slate-600" data-testid="funnel-outside">
          {outside}
        </p>
      )}
    </section>
  );
}
