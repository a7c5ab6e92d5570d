import { useId } from 'react';
import { DATE_RANGE_MESSAGE } from '#shared/constants';
import { OFFLINE_LABEL, UNRECORDED_LABEL, sourceLabel } from '#shared/source-label';
import { useAdmins } from '#client/lib/api/admins.ts';
import { validRange, type BoardFilters as Filters } from '../api/get-board.ts';

type Props = {
  filters: Filters;
  onOwner: (owner: string) => void;
  onSource: (origin: string, value?: string) => void;
  onCreatedFrom: (day: string) => void;
  onCreatedTo: (day: string) => void;
};

const selectClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600 sm:w-auto';
const dateClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600 aria-invalid:border-red-600 sm:w-auto';

/** The board's filters, as the leads list has them: owner (anyone, mine, unassigned, a person), source, the days added. */
export function BoardFilters({ filters, onOwner, onSource, onCreatedFrom, onCreatedTo }: Props) {
  const id = useId();
  const admins = useAdmins();
  const rangeOk = validRange(filters);
  // A source chosen on the Analytics page (a referring site, a campaign, a landing page) stays offered.
  const fromAnalytics = filters.origin && filters.origin !== 'offline' && filters.origin !== 'unrecorded';
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
      <div>
        <label htmlFor={`${id}-owner`} className="block text-xs font-medium text-slate-600">
          Owner
        </label>
        <select id={`${id}-owner`} value={filters.owner} onChange={(e) => onOwner(e.currentTarget.value)} className={selectClass}>
          <option value="">Anyone</option>
          <option value="me">Mine</option>
          <option value="none">Unassigned</option>
          {(admins.data?.admins ?? []).map((a) => (
            <option key={a.id} value={a.id}>
              {a.display_name}
            </option>
          ))}
          {filters.owner && !['me', 'none'].includes(filters.owner) && !admins.data?.admins.some((a) => a.id === filters.owner) ? (
            <option value={filters.owner}>One admin</option>
          ) : null}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-source`} className="block text-xs font-medium text-slate-600">
          Source
        </label>
        <select
          id={`${id}-source`}
          value={filters.origin ? `${filters.origin}:${filters.origin_value}` : ''}
          onChange={(e) => {
            const [origin = '', ...value] = e.currentTarget.value.split(':');
            onSource(origin, value.join(':'));
          }}
          className={selectClass}
        >
          <option value="">Any source</option>
          <option value="offline:">{OFFLINE_LABEL}</option>
          <option value="unrecorded:">{UNRECORDED_LABEL}</option>
          {fromAnalytics ? (
            <option value={`${filters.origin}:${filters.origin_value}`}>{sourceLabel(filters.origin, filters.origin_value)}</option>
          ) : null}
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
            value={filters.created_from}
            max={filters.created_to || undefined}
            onChange={(e) => onCreatedFrom(e.currentTarget.value)}
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
            value={filters.created_to}
            min={filters.created_from || undefined}
            aria-invalid={!rangeOk || undefined}
            aria-describedby={rangeOk ? undefined : `${id}-range-error`}
            onChange={(e) => onCreatedTo(e.currentTarget.value)}
            className={dateClass}
          />
        </div>
        {rangeOk ? null : (
          <p id={`${id}-range-error`} className="w-full text-sm text-red-700">
            {DATE_RANGE_MESSAGE}
          </p>
        )}
      </fieldset>
    </div>
  );
}
