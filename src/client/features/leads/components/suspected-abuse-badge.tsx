import { formatDate } from '#client/lib/format.ts';

/** The mark staff's bulk cancel leaves on a lead (its website bookings cancelled as suspected abuse). */
export const SUSPECTED_ABUSE_LABEL = 'Booking cancelled as suspected abuse';

/** The lead's mark, where its status shows (lead page, list table and cards); nothing for an unmarked lead. */
export function SuspectedAbuseBadge({ at }: { at: string | null }) {
  if (!at) return null;
  return (
    <span
      title={`Website booking cancelled by staff on ${formatDate(at)}`}
      className="inline-flex items-center rounded-full border border-red-300 bg-white px-2.5 py-0.5 text-xs font-medium text-red-800"
    >
      {SUSPECTED_ABUSE_LABEL}
    </span>
  );
}
