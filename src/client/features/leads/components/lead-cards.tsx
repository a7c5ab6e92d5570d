import { UnreadRepliesBadge } from './unread-replies-badge.tsx';
import { useId } from 'react';
import { Link } from 'react-router';
import type { LeadSort } from '#shared/schemas/lead';
import { StatusBadge } from '#client/components/ui/status-badge.tsx';
import { SuspectedAbuseBadge } from './suspected-abuse-badge.tsx';
import { formatDate, formatPropertyType } from '#client/lib/format.ts';
import type { SortDirection } from '../api/get-leads.ts';
import { NextStep, RowActions, SelectAllBox, checkboxClass, type LeadRowProps } from './leads-table.tsx';

type Props = LeadRowProps & { sort: LeadSort; dir: SortDirection; onSort: (sort: LeadSort, dir: SortDirection) => void };

/** The orders a phone offers, as one select (a phone has no column headers to click). */
const ORDERS: { label: string; sort: LeadSort; dir: SortDirection }[] = [
  { label: 'Newest first', sort: 'created', dir: 'desc' },
  { label: 'Oldest first', sort: 'created', dir: 'asc' },
  { label: 'Name, A to Z', sort: 'name', dir: 'asc' },
  { label: 'Name, Z to A', sort: 'name', dir: 'desc' },
  { label: 'Status, A to Z', sort: 'status', dir: 'asc' },
  { label: 'Status, Z to A', sort: 'status', dir: 'desc' },
  { label: 'Next step, soonest first', sort: 'next_step', dir: 'asc' },
  { label: 'Next step, latest first', sort: 'next_step', dir: 'desc' },
];

/** The leads of the current page under 640 px: one card each, nothing wider than the screen. */
export function LeadCards({ leads, busy, selection, onEdit, onDelete, sort, dir, onSort }: Props) {
  const id = useId();
  return (
    <div className="space-y-3" aria-busy={busy || undefined}>
      <div className="flex items-center justify-between gap-3">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <SelectAllBox leads={leads} selection={selection} />
          <span aria-hidden="true">All</span>
        </label>
        <div className="flex min-w-0 items-center gap-2">
          <label htmlFor={`${id}-order`} className="text-sm text-slate-700">
            Sort by
          </label>
          <select
            id={`${id}-order`}
            value={`${sort} ${dir}`}
            onChange={(event) => {
              const order = ORDERS.find((o) => `${o.sort} ${o.dir}` === event.currentTarget.value);
              if (order) onSort(order.sort, order.dir);
            }}
            className="min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 shadow-sm"
          >
            {ORDERS.map((o) => (
              <option key={o.label} value={`${o.sort} ${o.dir}`}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {leads.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white px-4 py-10 text-center text-slate-600">No leads found</p>
      ) : (
        <ul className="space-y-3" aria-label="Leads">
          {leads.map((lead) => (
            <li
              key={lead.id}
              className={`rounded-lg border p-4 shadow-sm ${selection.has(lead.id) ? 'border-blue-300 bg-blue-50' : 'border-slate-200 bg-white'}`}
            >
              <div className="flex items-start gap-3">
                <input
                  type="checkbox"
                  aria-label={`Select ${lead.full_name}`}
                  className={`${checkboxClass} mt-1 shrink-0`}
                  checked={selection.has(lead.id)}
                  onChange={(event) => selection.setMany([lead.id], event.currentTarget.checked)}
                />
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <Link to={`/dashboard/leads/${lead.id}`} className="min-w-0 font-semibold break-words text-blue-800 hover:underline">
                      {lead.full_name}
                    </Link>
                    <StatusBadge status={lead.status} />
                  </div>
                  {lead.unread_replies > 0 ? (
                    <p className="mt-1">
                      <UnreadRepliesBadge count={lead.unread_replies} />
                    </p>
                  ) : null}
                  {lead.suspected_abuse_at ? (
                    <p className="mt-1">
                      <SuspectedAbuseBadge at={lead.suspected_abuse_at} />
                    </p>
                  ) : null}
                  <p className="mt-1 text-sm break-all text-slate-700">{lead.email}</p>
                  <p className="text-sm text-slate-600">{lead.phone}</p>
                  <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                    <dt className="text-slate-600">Property type</dt>
                    <dd className="text-slate-900">{formatPropertyType(lead.property_types)}</dd>
                    <dt className="text-slate-600">Added</dt>
                    <dd className="text-slate-900">{formatDate(lead.created_at)}</dd>
                    <dt className="text-slate-600">Owner</dt>
                    <dd className="min-w-0 truncate text-slate-900">{lead.owner_name ?? '—'}</dd>
                    <dt className="text-slate-600">Next step</dt>
                    <dd className="min-w-0">
                      <NextStep lead={lead} />
                    </dd>
                  </dl>
                </div>
              </div>
              <RowActions lead={lead} onEdit={onEdit} onDelete={onDelete} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
