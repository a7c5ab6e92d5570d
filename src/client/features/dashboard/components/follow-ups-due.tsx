import type { Overview } from '#shared/schemas/overview';
import { Link } from 'react-router';
import { followUpText } from '#client/lib/follow-up.ts';
import { OverviewPanel } from './overview-panel.tsx';

/** A lead whose next step is due, as the Overview's `follow_ups` lists it. */
export type DueFollowUp = Overview['follow_ups'][number];

/** Next steps due today or overdue (the server picks them, oldest first), each linking to its lead. */
export function FollowUpsDue({ followUps }: { followUps: DueFollowUp[] }) {
  return (
    <OverviewPanel title="Follow-ups due" link={{ to: '/dashboard/leads', label: 'View all leads' }}>
      {followUps.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No follow-ups due.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {followUps.map((f) => (
            <li key={f.lead_id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <Link
                  to={`/dashboard/leads/${encodeURIComponent(f.lead_id)}`}
                  className="block truncate font-medium text-blue-800 hover:underline"
                >
                  {f.full_name}
                </Link>
                <p className="text-sm break-words text-slate-700">{followUpText(f.follow_up_on, f.follow_up_note)}</p>
                <p className="truncate text-xs text-slate-500">{f.owner_name ? `Owner: ${f.owner_name}` : 'No owner'}</p>
              </div>
              <span
                className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ${f.overdue ? 'bg-red-100 text-red-800' : 'bg-amber-100 text-amber-900'}`}
              >
                {f.overdue ? 'Overdue' : 'Today'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </OverviewPanel>
  );
}
