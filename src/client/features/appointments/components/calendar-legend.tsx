import { APPOINTMENT_TYPES } from '#shared/constants';
import { TYPE_COLORS } from './appointment-type-badge.tsx';

/**
 * What the calendar's colours and marks mean: each appointment is coloured by its type (Call
 * blue, Zoom purple, On-site green), and a cancelled one is struck through
 * (docs/product-rules.md, "Appointments"). Each sample says its meaning in words too.
 */
const LEGEND_ID = 'calendar-legend';

export function CalendarLegend() {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
      <span id={LEGEND_ID} className="text-slate-600">
        Legend
      </span>
      <ul aria-labelledby={LEGEND_ID} className="flex flex-wrap items-center gap-x-2 gap-y-1">
        {APPOINTMENT_TYPES.map((type) => (
          <li key={type} className={`rounded px-1.5 py-0.5 font-medium ${TYPE_COLORS[type]}`}>
            {type}
          </li>
        ))}
        <li className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700 line-through">Cancelled</li>
      </ul>
    </div>
  );
}
