import { Link } from 'react-router';
import { LeadSourceLine } from './lead-source.tsx';
import { ChevronDown, ChevronUp, ChevronsUpDown, Pencil, Trash2 } from '#client/components/icons.tsx';
import type { Lead, LeadSort } from '#shared/schemas/lead';
import { StatusBadge } from '#client/components/ui/status-badge.tsx';
import { SuspectedAbuseBadge } from './suspected-abuse-badge.tsx';
import { formatDate, formatPropertyType } from '#client/lib/format.ts';
import type { SortDirection } from '../api/get-leads.ts';
import type { LeadSelection } from '../use-lead-selection.ts';

export type LeadRowProps = {
  leads: Lead[];
  busy: boolean;
  selection: LeadSelection;
  onEdit: (lead: Lead) => void;
  onDelete: (lead: Lead) => void;
};
type Props = LeadRowProps & { sort: LeadSort; dir: SortDirection; onSort: (sort: LeadSort) => void };

type Column = { label: string; sort?: LeadSort; className?: string };
const COLUMNS: Column[] = [
  { label: 'Name', sort: 'name' },
  { label: 'Contact' },
  { label: 'Property Type' },
  { label: 'Owner' },
  { label: 'Status', sort: 'status' },
  { label: 'Next step', sort: 'next_step' },
  { label: 'Date Added', sort: 'created' },
  { label: 'Actions', className: 'text-right' },
];

export const checkboxClass = 'size-4 rounded border-slate-400 accent-blue-700';

/** The lead's next step: its date, and its text when there is one; "—" without. */
export function NextStep({ lead }: { lead: Lead }) {
  if (!lead.follow_up_on) return <span className="text-slate-600">—</span>;
  return (
    <>
      <span className="block whitespace-nowrap text-slate-900">{formatDate(lead.follow_up_on)}</span>
      {lead.follow_up_note && <span className="block max-w-48 truncate text-slate-600" title={lead.follow_up_note}>{lead.follow_up_note}</span>}
    </>
  );
}

/** The "select all on this page" box: checked when all are, mixed when some are. */
export function SelectAllBox({ leads, selection }: Pick<LeadRowProps, 'leads' | 'selection'>) {
  const chosen = leads.filter((lead) => selection.has(lead.id)).length;
  return (
    <input
      type="checkbox"
      aria-label="Select all leads on this page"
      className={checkboxClass}
      disabled={leads.length === 0}
      checked={leads.length > 0 && chosen === leads.length}
      ref={(box) => {
        if (box) box.indeterminate = chosen > 0 && chosen < leads.length;
      }}
      onChange={(event) => selection.setMany(leads.map((lead) => lead.id), event.currentTarget.checked)}
    />
  );
}

function SortHeader({ column, sort, dir, onSort }: { column: Column & { sort: LeadSort } } & Pick<Props, 'sort' | 'dir' | 'onSort'>) {
  const active = column.sort === sort;
  const Arrow = !active ? ChevronsUpDown : dir === 'asc' ? ChevronUp : ChevronDown;
  return (
    <th scope="col" aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : undefined} className="px-4 py-2 font-semibold text-slate-700">
      <button
        type="button"
        onClick={() => onSort(column.sort)}
        className="-mx-2 inline-flex items-center gap-1 rounded px-2 py-1 whitespace-nowrap hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        {column.label}
        <Arrow aria-hidden="true" className={`size-4 ${active ? 'text-slate-900' : 'text-slate-400'}`} />
      </button>
    </th>
  );
}

/** The leads of the current page, from 640 px wide (phones get LeadCards). */
export function LeadsTable({ leads, busy, selection, onEdit, onDelete, sort, dir, onSort }: Props) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm" aria-busy={busy || undefined}>
      <table className="w-full min-w-[60rem] divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className="w-10 px-4 py-2">
              <SelectAllBox leads={leads} selection={selection} />
            </th>
            {COLUMNS.map((column) =>
              column.sort ? (
                <SortHeader key={column.label} column={{ ...column, sort: column.sort }} sort={sort} dir={dir} onSort={onSort} />
              ) : (
                <th key={column.label} scope="col" className={`px-4 py-3 font-semibold text-slate-700 ${column.className ?? ''}`}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {leads.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length + 1} className="px-4 py-10 text-center text-slate-500">
                No leads found
              </td>
            </tr>
          ) : (
            leads.map((lead) => (
              <tr key={lead.id} className={selection.has(lead.id) ? 'bg-blue-50' : 'hover:bg-slate-50'}>
                <td className="px-4 py-3">
                  <input
                    type="checkbox"
                    aria-label={`Select ${lead.full_name}`}
                    className={checkboxClass}
                    checked={selection.has(lead.id)}
                    onChange={(event) => selection.setMany([lead.id], event.currentTarget.checked)}
                  />
                </td>
                <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                  <Link to={`/dashboard/leads/${encodeURIComponent(lead.id)}`} className="text-blue-800 hover:underline">
                    {lead.full_name}
                  </Link>
                  <LeadSourceLine lead={lead} />
                </th>
                <td className="px-4 py-3">
                  <span className="block text-slate-900">{lead.email}</span>
                  <span className="block text-slate-600">{lead.phone}</span>
                </td>
                <td className="px-4 py-3 text-slate-700">{formatPropertyType(lead.property_types)}</td>
                <td className="max-w-48 truncate px-4 py-3 text-slate-700" title={lead.owner_name ?? undefined}>
                  {lead.owner_name ?? '—'}
                </td>
                <td className="px-4 py-3">
                  <div className="flex flex-col items-start gap-1">
                    <StatusBadge status={lead.status} />
                    <SuspectedAbuseBadge at={lead.suspected_abuse_at} />
                  </div>
                </td>
                <td className="px-4 py-3">
                  <NextStep lead={lead} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDate(lead.created_at)}</td>
                <td className="px-4 py-3">
                  <RowActions lead={lead} onEdit={onEdit} onDelete={onDelete} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

export function RowActions({ lead, onEdit, onDelete }: { lead: Lead; onEdit: (lead: Lead) => void; onDelete: (lead: Lead) => void }) {
  return (
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
  );
}
