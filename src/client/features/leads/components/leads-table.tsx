import { ChevronDown, ChevronUp, ChevronsUpDown, Pencil, Trash2 } from '#client/components/icons.tsx';
import { UnreadRepliesBadge } from './unread-replies-badge.tsx';
import type { Lead, LeadSort } from '#shared/schemas/lead';
import { StatusBadge } from '#client/components/ui/status-badge.tsx';
import { SuspectedAbuseBadge } from './suspected-abuse-badge.tsx';
import { TruncatedLink, TruncatedText } from './truncated-text.tsx';
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

/*
 * Every column fits the table's box (table-layout: fixed), so the list never scrolls sideways:
 * at 1280 px (a box of about 950 px beside the sidebar) all of them, long text cut with an
 * ellipsis (TruncatedText). Narrower boxes drop columns, by the box's width (container
 * queries), not the window's: Owner and Next step below 56rem, Property Type below 42rem. Phones
 * (under 640 px) get LeadCards. The fixed widths hold their longest content ("Single family", the
 * Contacted badge, a date, the sort buttons); Name and Owner take a share, Contact the rest.
 */
type Column = { label: string; sort?: LeadSort; className: string };
const atMedium = 'hidden @2xl:table-cell';
const atWide = 'hidden @4xl:table-cell';
const COLUMNS: Column[] = [
  { label: 'Name', sort: 'name', className: 'w-[15%]' },
  { label: 'Contact', className: '' },
  { label: 'Property Type', className: `w-27 ${atMedium}` },
  { label: 'Owner', className: `w-[9%] ${atWide}` },
  { label: 'Status', sort: 'status', className: 'w-25' },
  { label: 'Next step', sort: 'next_step', className: `w-27 ${atWide}` },
  { label: 'Date Added', sort: 'created', className: 'w-30' },
  { label: 'Actions', className: 'w-22 text-right' },
];
const cell = 'px-2.5 py-3 align-top';

export const checkboxClass = 'size-4 rounded border-slate-400 accent-blue-700';

/** The lead's next step: its date, and its text when there is one (cut to its column); "—" without. */
export function NextStep({ lead }: { lead: Lead }) {
  if (!lead.follow_up_on) return <span className="text-slate-600">—</span>;
  return (
    <>
      <span className="block whitespace-nowrap text-slate-900">{formatDate(lead.follow_up_on)}</span>
      {lead.follow_up_note && <TruncatedText text={lead.follow_up_note} className="text-slate-600" />}
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
      onChange={(event) =>
        selection.setMany(
          leads.map((lead) => lead.id),
          event.currentTarget.checked,
        )
      }
    />
  );
}

function SortHeader({ column, sort, dir, onSort }: { column: Column & { sort: LeadSort } } & Pick<Props, 'sort' | 'dir' | 'onSort'>) {
  const active = column.sort === sort;
  const Arrow = !active ? ChevronsUpDown : dir === 'asc' ? ChevronUp : ChevronDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}
      className={`px-2.5 py-2 font-semibold text-slate-700 ${column.className}`}
    >
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
    <div className="@container rounded-lg border border-slate-200 bg-white shadow-sm" aria-busy={busy || undefined}>
      <table className="w-full table-fixed divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className="w-9 px-2.5 py-2">
              <SelectAllBox leads={leads} selection={selection} />
            </th>
            {COLUMNS.map((column) =>
              column.sort ? (
                <SortHeader key={column.label} column={{ ...column, sort: column.sort }} sort={sort} dir={dir} onSort={onSort} />
              ) : (
                <th key={column.label} scope="col" className={`px-2.5 py-3 font-semibold text-slate-700 ${column.className}`}>
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
            leads.map((lead) => <LeadRow key={lead.id} lead={lead} selection={selection} onEdit={onEdit} onDelete={onDelete} />)
          )}
        </tbody>
      </table>
    </div>
  );
}

function LeadRow({ lead, selection, onEdit, onDelete }: { lead: Lead } & Pick<LeadRowProps, 'selection' | 'onEdit' | 'onDelete'>) {
  return (
    <tr className={selection.has(lead.id) ? 'bg-blue-50' : 'hover:bg-slate-50'}>
      <td className={cell}>
        <input
          type="checkbox"
          aria-label={`Select ${lead.full_name}`}
          className={checkboxClass}
          checked={selection.has(lead.id)}
          onChange={(event) => selection.setMany([lead.id], event.currentTarget.checked)}
        />
      </td>
      <th scope="row" className={`${cell} font-medium text-slate-900`}>
        <TruncatedLink
          text={lead.full_name}
          to={`/dashboard/leads/${encodeURIComponent(lead.id)}`}
          className="text-blue-800 hover:underline"
        />
        {lead.source && <TruncatedText text={`Source: ${lead.source}`} className="text-xs font-normal text-slate-600" />}
        <UnreadRepliesBadge count={lead.unread_replies} />
      </th>
      <td className={cell}>
        <TruncatedText text={lead.email} className="text-slate-900" />
        <TruncatedText text={lead.phone} className="text-slate-600" />
      </td>
      <td className={`${cell} whitespace-nowrap text-slate-700 ${atMedium}`}>{formatPropertyType(lead.property_types)}</td>
      <td className={`${cell} text-slate-700 ${atWide}`}>{lead.owner_name ? <TruncatedText text={lead.owner_name} /> : '—'}</td>
      <td className={cell}>
        <div className="flex flex-col items-start gap-1">
          <StatusBadge status={lead.status} />
          <SuspectedAbuseBadge at={lead.suspected_abuse_at} />
        </div>
      </td>
      <td className={`${cell} ${atWide}`}>
        <NextStep lead={lead} />
      </td>
      <td className={`${cell} whitespace-nowrap text-slate-700`}>{formatDate(lead.created_at)}</td>
      <td className={`${cell} py-1.5`}>
        <RowActions lead={lead} onEdit={onEdit} onDelete={onDelete} />
      </td>
    </tr>
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
