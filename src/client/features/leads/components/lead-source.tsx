import type { Lead } from '#shared/schemas/lead';

export function LeadSourceDetails({ lead }: { lead: Lead }) {
  if (!lead.source && !lead.landing_page) return null;
  const campaign = [lead.utm_source, lead.utm_medium, lead.utm_campaign].filter(Boolean).join(' / ');
  return (
    <section aria-labelledby="lead-source-heading" className="mt-6 border-t border-slate-200 pt-4 text-sm">
      <h3 id="lead-source-heading" className="font-semibold text-slate-900">
        Source
      </h3>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-700">
        <dt className="text-slate-500">Came from</dt>
        <dd className="break-all">{lead.source ?? 'Direct'}</dd>
        {campaign ? (
          <>
            <dt className="text-slate-500">Campaign</dt>
            <dd className="break-all">{campaign}</dd>
          </>
        ) : null}
        {lead.landing_page ? (
          <>
            <dt className="text-slate-500">Landing page</dt>
            <dd className="break-all">{lead.landing_page}</dd>
          </>
        ) : null}
        {lead.pages_viewed != null ? (
          <>
            <dt className="text-slate-500">Pages viewed</dt>
            <dd>{lead.pages_viewed}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
