type Props = { busy: boolean; label: string; busyLabel: string; onCancel: () => void };

/** A dialog form's Cancel and submit buttons; the submit button is disabled while the request runs. */
export function FormActions({ busy, label, busyLabel, onCancel }: Props) {
  return (
    <div className="flex justify-end gap-3 pt-2">
      <button type="button" onClick={onCancel} className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
        Cancel
      </button>
      <button
        type="submit"
        disabled={busy}
        className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
