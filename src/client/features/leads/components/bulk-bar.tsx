import { useId } from 'react';
import { LEAD_STATUSES } from '#shared/constants';
import type { AdminSummary } from '#shared/schemas/lead-workspace';
import { Download, Trash2 } from '#client/components/icons.tsx';

type Props = {
  count: number;
  busy: boolean;
  /** Admins to assign to; empty when the list is not available ("Assign to me" and "Unassign" still are). */
  admins: AdminSummary[];
  exportHref: string;
  onStatus: (status: (typeof LEAD_STATUSES)[number]) => void;
  onAssign: (owner: 'me' | null | string) => void;
  onDelete: () => void;
  onClear: () => void;
};

const buttonClass =
  'inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50';
const selectClass = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 disabled:opacity-50';

/** What can be done to the ticked leads at once; shown while some are. */
export function BulkBar({ count, busy, admins, exportHref, onStatus, onAssign, onDelete, onClear }: Props) {
  const id = useId();
  return (
    <div
      role="region"
      aria-label="Selected leads"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-blue-200 bg-blue-50 px-3 py-2"
    >
      <p className="mr-2 text-sm font-semibold text-slate-900" aria-live="polite">
        {count === 1 ? '1 lead selected' : `${count} leads selected`}
      </p>
      <label htmlFor={`${id}-status`} className="sr-only">
        Change status
      </label>
      <select
        id={`${id}-status`}
        value=""
        disabled={busy}
        onChange={(event) => {
          const status = LEAD_STATUSES.find((s) => s === event.currentTarget.value);
          if (status) onStatus(status);
        }}
        className={selectClass}
      >
        <option value="" disabled>
          Change status
        </option>
        {LEAD_STATUSES.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </select>
      <button type="button" className={buttonClass} disabled={busy} onClick={() => onAssign('me')}>
        Assign to me
      </button>
      <button type="button" className={buttonClass} disabled={busy} onClick={() => onAssign(null)}>
        Unassign
      </button>
      {admins.length > 0 && (
        <>
          <label htmlFor={`${id}-assign`} className="sr-only">
            Assign to
          </label>
          <select
            id={`${id}-assign`}
            value=""
            disabled={busy}
            onChange={(event) => event.currentTarget.value && onAssign(event.currentTarget.value)}
            className={selectClass}
          >
            <option value="" disabled>
              Assign to…
            </option>
            {admins.map((admin) => (
              <option key={admin.id} value={admin.id}>
                {admin.display_name}
              </option>
            ))}
          </select>
        </>
      )}
      <a href={exportHref} download className={buttonClass}>
        <Download aria-hidden="true" className="size-4" />
        Export selected
      </a>
      <button type="button" className={`${buttonClass} text-red-700 hover:bg-red-50`} disabled={busy} onClick={onDelete}>
        <Trash2 aria-hidden="true" className="size-4" />
        Delete
      </button>
      <button type="button" className="ml-auto text-sm font-medium text-blue-800 underline hover:text-blue-900" onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}
