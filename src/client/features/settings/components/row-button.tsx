/** A small action on a team row (a person, an invitation), named for the row it acts on. */
export function RowButton({
  label,
  danger = false,
  onClick,
  children,
}: {
  label: string;
  danger?: boolean;
  onClick: () => void;
  children: string;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className={`rounded-md border px-3 py-1.5 text-sm font-medium ${danger ? 'border-red-300 text-red-700 hover:bg-red-50' : 'border-slate-300 text-slate-700 hover:bg-slate-50'}`}
    >
      {children}
    </button>
  );
}
