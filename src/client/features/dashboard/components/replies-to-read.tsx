import type { Overview } from '#shared/schemas/overview';
import { Link } from 'react-router';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { OverviewPanel } from './overview-panel.tsx';

/** Leads with replies nobody has read yet, the newest reply first; each links to the lead's page, where they are read. */
export function RepliesToRead({ replies }: { replies: Overview['replies_to_read'] }) {
  return (
    <OverviewPanel title="Replies to read" link={{ to: '/dashboard/inbox', label: 'Open the Inbox' }}>
      {replies.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No replies to read.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {replies.map((r) => (
            <li key={r.lead_id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <Link
                  to={`/dashboard/leads/${encodeURIComponent(r.lead_id)}`}
                  className="block truncate font-medium text-blue-800 hover:underline"
                >
                  {r.full_name}
                </Link>
                <p className="truncate text-sm text-slate-700">{r.subject || '(no subject)'}</p>
                <p className="text-xs text-slate-500">
                  <RelativeTime iso={r.received_at} />
                </p>
              </div>
              <span className="shrink-0 rounded-full bg-blue-100 px-2.5 py-0.5 text-xs font-medium text-blue-800">
                {r.unread === 1 ? '1 new' : `${r.unread} new`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </OverviewPanel>
  );
}
