import { Link } from 'react-router';
import { LeadSourceLine } from './lead-source.tsx';
import { Pencil, Trash2 } from '#client/components/icons.tsx';
import type { Lead } from '#shared/schemas/lead';
import { StatusBadge } from '#client/components/ui/status-badge.tsx';
import { formatDate, formatPropertyType } from '#client/lib/format.ts';

type Props = { leads: Lead[]; busy: boolean; onEdit: (lead: Lead) => void; onDelete: (lead: Lead) => void };

const HEADERS = ['Name', 'Contact', 'Property Type', 'Status', 'Date Added', 'Actions'];

/** The leads of the current page. On a phone the table scrolls sideways inside its frame. */
export function LeadsTable({ leads, busy, onEdit, onDelete }: Props) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm" aria-busy={busy || undefined}>
      <table className="w-full min-w-[48rem] divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50">
          <tr>
            {HEADERS.map((header) => (
              <th key={header} scope="col" className={`px-4 py-3 font-semibold text-slate-700 ${header === 'Actions' ? 'text-right' : ''}`}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {leads.length === 0 ? (
            <tr>
              <td colSpan={HEADERS.length} className="px-4 py-10 text-center text-slate-500">
                No leads found
              </td>
            </tr>
          ) : (
            leads.map((lead) => (
              <tr key={lead.id} className="hover:bg-slate-50">
                <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                  <Link to={`/dashboard/leads/${encodeURIComponent(lead.id)}`} className="text-blue-800 hover:underline">
                    {lead.full_name}
                  </Link>
                  <LeadSourceLine lead={lead} />
                </th>
                <td className="px-4 py-3">
                  <span className="block text-slate-900">{lead.email}</span>
                  <span className="block text-slate-500">{lead.phone}</span>
                </td>
                <td className="px-4 py-3 text-slate-700">{formatPropertyType(lead.property_types)}</td>
                <td className="px-4 py-3">
                  <StatusBadge status={lead.status} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDate(lead.created_at)}</td>
                <td className="px-4 py-3">
                  <div className="flex justify-end gap-1">
                    <button
                      type="button"
                      onClick={() => onEdit(lead)}
                      aria-label={`Edit ${lead.full_name}`}
                      className="rounded p-2 text-slate-500 hover:bg-blue-50 hover:text-blue-700"
                    >
                      <Pencil aria-hidden="true" className="size-4" />
                    </button>
                    <button
                      type="button"
                      onClick={() => onDelete(lead)}
                      aria-label={`Delete ${lead.full_name}`}
                      className="rounded p-2 text-slate-500 hover:bg-red-50 hover:text-red-700"
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                    </button>
                  </div>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
