import { Link } from 'react-router';
import type { Lead } from '#shared/schemas/lead';
import { StatusBadge } from '#client/components/ui/status-badge.tsx';
import { formatDate, formatPropertyType } from '#client/lib/format.ts';
import { OverviewPanel } from './overview-panel.tsx';

/** The 5 newest leads (the server picks them). */
export function RecentLeads({ leads }: { leads: Lead[] }) {
  return (
    <OverviewPanel title="Recent Leads" link={{ to: '/dashboard/leads', label: 'View all leads' }}>
      {leads.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No leads yet</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {leads.map((lead) => (
            <li key={lead.id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <Link
                  to={`/dashboard/leads/${encodeURIComponent(lead.id)}`}
                  className="block truncate font-medium text-blue-800 hover:underline"
                >
                  {lead.full_name}
                </Link>
                <p className="truncate text-sm text-slate-600">{lead.email}</p>
                <p className="text-xs text-slate-500">{formatPropertyType(lead.property_types)}</p>
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1">
                <StatusBadge status={lead.status} />
                <span className="text-xs text-slate-500">{formatDate(lead.created_at)}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </OverviewPanel>
  );
}
