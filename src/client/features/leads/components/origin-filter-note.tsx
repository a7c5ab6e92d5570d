import { sourceLabel } from '#shared/source-label';
import { formatDate } from '#client/lib/format.ts';
import type { LeadListView } from '../api/get-leads.ts';

/** Says the list shows one row of the Analytics sources table, with a way back to every lead. */
export function OriginFilterNote({ view, onClear }: { view: LeadListView; onClear: () => void }) {
  if (!view.origin && !view.visit_from && !view.visit_to) return null;
  const days =
    view.visit_from && view.visit_to
      ? `${formatDate(view.visit_from)} – ${formatDate(view.visit_to)}`
      : view.visit_from
        ? `from ${formatDate(view.visit_from)}`
        : view.visit_to
          ? `until ${formatDate(view.visit_to)}`
          : '';
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-blue-200 bg-blue-50 px-4 py-3 text-sm text-blue-900"
    >
      <p>
        From Analytics: <span className="font-semibold">{view.origin ? sourceLabel(view.origin, view.origin_value) : 'every source'}</span>
        {days && <>, visits {days}</>}
      </p>
      <button
        type="button"
        onClick={onClear}
        className="rounded-md border border-blue-300 bg-white px-3 py-1.5 font-medium text-blue-800 hover:bg-blue-100"
      >
        Show all leads
      </button>
    </div>
  );
}
