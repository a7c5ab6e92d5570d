import type { AnalyticsReport } from '#shared/schemas/analytics-report';
import { periodBoundsText } from '../analytics-format.ts';

/**
 * What the page's figures count, in one place on the page: the period's bounds on the business
 * clock, and what a visitor, a page view, a lead and a lost deal are, and how the stage conversion
 * reads the leads. The cards, the trend, the funnel, the Sources table and the pipeline tables all count this way (docs/product-rules.md, "Analytics"). `asOf`: when the
 * figures were read (a period still running then ends "now").
 */
export function HowWeCount({ report, asOf }: { report: AnalyticsReport; asOf: number }) {
  const rows = [
    { term: 'This period', text: periodBoundsText(report, asOf), id: 'period-bounds' },
    {
      term: 'Visitor',
      text: 'A browser on the site, counted once: in the period of its first recorded page view. Someone who asks not to be tracked counts once per page.',
    },
    { term: 'Page view', text: 'Each page shown, counted when it was shown.' },
    {
      term: 'Lead',
      text: 'Counted in the period of the visit that brought it (its first page view). A lead typed in, imported or sent with no recorded visit counts when it was added.',
    },
    { term: 'Avg. time on site', text: "The time spent on the site in the period, divided by the period's visitors." },
    {
      term: 'Stage conversion',
      text: "The period's leads (as above), each counted at every stage up to the furthest it has reached since, one it skipped included, even if it went back or was lost later. Lost is not a stage.",
    },
    {
      term: 'Lost deal',
      text: 'Counted when it was lost (moving it between Lost stages is not a new loss), while it is still lost; a deal reopened and lost again counts the last time.',
    },
  ];
  return (
    <section
      aria-labelledby="how-we-count-heading"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="how-we-count"
    >
      <h2 id="how-we-count-heading" className="text-lg font-semibold text-slate-900">
        How we count
      </h2>
      <p className="text-xs text-slate-500">The cards, the trend, the funnel, the Sources table and the stage conversion count alike.</p>
      <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        {rows.map((row) => (
          <div key={row.term}>
            <dt className="font-medium text-slate-900">{row.term}</dt>
            <dd className="text-slate-700" data-testid={row.id}>
              {row.text}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
