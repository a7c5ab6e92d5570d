import type { LeadStatusChange } from '#shared/schemas/lead';
import { DATE_TIME_FORMAT, formatDate } from '#client/lib/format.ts';

/** Who made a change: the admin's name; without one, the public form created it, or the system changed it. */
function changedBy(change: LeadStatusChange): string {
  if (change.changed_by) return change.changed_by;
  return change.from_status === null ? 'Website form' : 'System';
}

/** Speed to lead: every status change of the lead, oldest first. */
export function StatusHistory({ history }: { history: LeadStatusChange[] }) {
  return (
    <section aria-labelledby="status-history-heading" className="mt-6 border-t border-slate-200 pt-4">
      <h3 id="status-history-heading" className="text-sm font-semibold text-slate-900">
        Status history
      </h3>
      {history.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">No status changes recorded</p>
      ) : (
        <ol className="mt-2 space-y-2">
          {history.map((change, index) => (
            <li key={`${change.changed_at}-${index}`} className="text-sm text-slate-700">
              <span className="font-medium text-slate-900">
                {change.from_status ? `${change.from_status} → ${change.to_status}` : `Created as ${change.to_status}`}
              </span>
              <span className="block text-xs text-slate-500">
                {formatDate(change.changed_at, DATE_TIME_FORMAT)} · {changedBy(change)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
