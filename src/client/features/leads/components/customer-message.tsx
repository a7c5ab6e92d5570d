import type { LeadDetail } from '#shared/schemas/lead';
import { formatDate } from '#client/lib/format.ts';
import { LinkedText } from './linked-text.tsx';

/**
 * What the customer wrote on the public form, in their own words: quoted and read-only (the
 * server refuses to change it; a note says anything more). Leads typed in by staff show
 * their message the same way, without "wrote".
 */
export function CustomerMessage({ lead }: { lead: LeadDetail }) {
  if (!lead.message) return null;
  return (
    <section aria-labelledby="customer-message-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h2 id="customer-message-heading" className="text-lg font-semibold text-slate-900">
        {lead.from_form ? 'Customer’s message' : 'Message'}
      </h2>
      <figure className="mt-3">
        <blockquote className="border-l-4 border-slate-300 pl-4 text-slate-800 italic">
          <LinkedText text={lead.message} />
        </blockquote>
        <figcaption className="mt-2 text-xs text-slate-500">
          {lead.from_form ? `${lead.full_name} wrote on ${formatDate(lead.created_at)}` : `Added on ${formatDate(lead.created_at)}`}
        </figcaption>
      </figure>
    </section>
  );
}
