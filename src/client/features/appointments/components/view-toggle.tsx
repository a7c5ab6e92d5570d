import { APPOINTMENT_VIEWS, type AppointmentsView } from '../calendar-views.ts';

const LABELS: Record<AppointmentsView, string> = { month: 'Month', week: 'Week', agenda: 'Agenda', list: 'List' };

/** Month / Week / Agenda / List, as toggle buttons (the pressed one is the view shown). */
export function ViewToggle({ view, onChange }: { view: AppointmentsView; onChange: (view: AppointmentsView) => void }) {
  return (
    <div
      role="group"
      aria-label="View"
      className="inline-flex divide-x divide-slate-300 overflow-hidden rounded-md border border-slate-300"
    >
      {APPOINTMENT_VIEWS.map((value) => (
        <button
          key={value}
          type="button"
          aria-pressed={view === value}
          onClick={() => onChange(value)}
          className={`px-3 py-2 text-sm font-medium ${view === value ? 'bg-slate-800 text-white' : 'bg-white text-slate-700 hover:bg-slate-50'}`}
        >
          {LABELS[value]}
        </button>
      ))}
    </div>
  );
}
