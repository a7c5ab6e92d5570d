import { Download, Search, SlidersHorizontal } from '#client/components/icons.tsx';
import { useId, useState } from 'react';
import { DATE_RANGE_MESSAGE, LEAD_STATUSES } from '#shared/constants';
import { leadFilterParams, validRange, type LeadListView } from '../api/get-leads.ts';
import { PROPERTY_TYPE_OPTIONS } from '#client/lib/lead-form.ts';
import { Button, buttonClass } from '#client/components/ui/button.tsx';

type Props = {
  view: LeadListView;
  searchText: string;
  onSearchText: (text: string) => void;
  onStatus: (status: string) => void;
  onPropertyType: (propertyType: string) => void;
  onOwner: (owner: string) => void;
  onCreatedFrom: (day: string) => void;
  onCreatedTo: (day: string) => void;
};

const selectClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600 sm:w-auto';

const dateClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600 aria-invalid:border-red-600 sm:w-auto';

/** How many filters narrow the list: status, property type, owner and the date added (one, with either end). */
export const activeFilterCount = (view: Pick<LeadListView, 'status' | 'property_type' | 'owner' | 'created_from' | 'created_to'>) =>
  [view.status, view.property_type, view.owner, view.created_from || view.created_to].filter(Boolean).length;

/**
 * Search box, the filters (status, property type, owner, created dates) and the CSV export of
 * what they select. Under 640 px the filters and the export fold behind one **Filters** button
 * (with the number of filters on), so the first lead shows without scrolling.
 */
export function LeadFilters({ view, searchText, onSearchText, onStatus, onPropertyType, onOwner, onCreatedFrom, onCreatedTo }: Props) {
  const id = useId();
  const exportQuery = leadFilterParams(view).toString();
  const rangeOk = validRange(view);
  // A date range that cannot be asked for is shown (its error is under it) rather than folded away.
  const [open, setOpen] = useState(false);
  const unfolded = open || !rangeOk;
  const active = activeFilterCount(view);
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
      <div className="flex gap-2 sm:contents">
        <div className="relative min-w-0 flex-1 sm:min-w-60">
          <label htmlFor={`${id}-search`} className="sr-only">
            Search leads
          </label>
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
          <input
            id={`${id}-search`}
            type="search"
            placeholder="Search leads..."
            value={searchText}
            onChange={(event) => onSearchText(event.currentTarget.value)}
            className="w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-2 focus:outline-blue-600"
          />
        </div>
        <Button
          aria-expanded={unfolded}
          aria-controls={`${id}-filters`}
          onClick={() => setOpen((was) => !was)}
          variant="secondary"
          size="sm"
          className="shrink-0 sm:hidden"
        >
          <SlidersHorizontal aria-hidden="true" className="size-4" />
          Filters
          {active > 0 && (
            <span className="rounded-full bg-blue-700 px-2 text-xs leading-5 font-semibold text-white">
              {active}
              <span className="sr-only"> on</span>
            </span>
          )}
        </Button>
      </div>
      {/* From 640 px the wrapper steps aside (display: contents): the filters sit in the row. */}
      <div id={`${id}-filters`} className={`${unfolded ? 'flex' : 'hidden'} flex-col gap-3 sm:contents`}>
        <div>
          <label htmlFor={`${id}-status`} className="sr-only">
            Filter by status
          </label>
          <select id={`${id}-status`} value={view.status} onChange={(event) => onStatus(event.currentTarget.value)} className={selectClass}>
            <option value="">All Statuses</option>
            {LEAD_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-type`} className="sr-only">
            Filter by property type
          </label>
          <select
            id={`${id}-type`}
            value={view.property_type}
            onChange={(event) => onPropertyType(event.currentTarget.value)}
            className={selectClass}
          >
            <option value="">All Property Types</option>
            {PROPERTY_TYPE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-owner`} className="sr-only">
            Filter by owner
          </label>
          <select id={`${id}-owner`} value={view.owner} onChange={(event) => onOwner(event.currentTarget.value)} className={selectClass}>
            <option value="">Anyone</option>
            <option value="me">Mine</option>
            <option value="none">Unassigned</option>
            {view.owner && view.owner !== 'me' && view.owner !== 'none' && <option value={view.owner}>One admin</option>}
          </select>
        </div>
        <fieldset className="flex min-w-0 flex-wrap items-end gap-2">
          <legend className="sr-only">Date added</legend>
          <div className="min-w-0 flex-1">
            <label htmlFor={`${id}-from`} className="block text-xs font-medium text-slate-600">
              From
            </label>
            <input
              id={`${id}-from`}
              type="date"
              value={view.created_from}
              max={view.created_to || undefined}
              onChange={(event) => onCreatedFrom(event.currentTarget.value)}
              className={dateClass}
            />
          </div>
          <div className="min-w-0 flex-1">
            <label htmlFor={`${id}-to`} className="block text-xs font-medium text-slate-600">
              To
            </label>
            <input
              id={`${id}-to`}
              type="date"
              value={view.created_to}
              min={view.created_from || undefined}
              aria-invalid={!rangeOk || undefined}
              aria-describedby={rangeOk ? undefined : `${id}-range-error`}
              onChange={(event) => onCreatedTo(event.currentTarget.value)}
              className={dateClass}
            />
          </div>
          {!rangeOk && (
            <p id={`${id}-range-error`} role="alert" className="w-full text-sm text-red-700">
              {DATE_RANGE_MESSAGE}
            </p>
          )}
        </fieldset>
        <a href={`/api/leads/export${exportQuery ? `?${exportQuery}` : ''}`} download className={buttonClass({ variant: 'secondary' })}>
          <Download aria-hidden="true" className="size-4" />
          Export CSV
        </a>
      </div>
    </div>
  );
}
