import { format } from 'date-fns';

/** /dashboard. The cards and lists of the overview come with the leads manager (issue 4). */
export function OverviewPage() {
  return (
    <section aria-labelledby="overview-heading">
      <h1 id="overview-heading" className="text-2xl font-bold text-slate-900">
        Dashboard Overview
      </h1>
      <p className="mt-1 text-slate-600">{format(new Date(), 'EEEE, MMMM d, yyyy')}</p>
    </section>
  );
}

/** A dashboard section that is not built yet: says so plainly instead of showing a broken page. */
export function SectionNotBuiltPage({ title }: { title: string }) {
  return (
    <section aria-labelledby="section-heading">
      <h1 id="section-heading" className="text-2xl font-bold text-slate-900">
        {title}
      </h1>
      <p className="mt-2 text-slate-600">This section is not available yet.</p>
    </section>
  );
}
