// docs/product-rules.md, "Leads": New blue, Contacted yellow, Converted green, any other red.
const COLORS: Record<string, string> = {
  New: 'bg-blue-100 text-blue-800',
  Contacted: 'bg-yellow-100 text-yellow-800',
  Converted: 'bg-green-100 text-green-800',
};
const OTHER = 'bg-red-100 text-red-800';

/** A lead's status as a coloured pill (the text carries the meaning, not only the colour). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ${COLORS[status] ?? OTHER}`}
    >
      {status}
    </span>
  );
}
