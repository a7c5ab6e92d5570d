import type { AppointmentType } from '#shared/constants';

// docs/product-rules.md, "Appointments": Call blue, Zoom purple, On-site green.
export const TYPE_COLORS: Record<AppointmentType, string> = {
  Call: 'bg-blue-100 text-blue-800',
  Zoom: 'bg-purple-100 text-purple-800',
  'On-site': 'bg-green-100 text-green-800',
};

/** An appointment's type as a coloured pill (the text carries the meaning, not only the colour). */
export function AppointmentTypeBadge({ type }: { type: AppointmentType }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ${TYPE_COLORS[type] ?? 'bg-slate-100 text-slate-800'}`}
    >
      {type}
    </span>
  );
}
