import { Link } from 'react-router';
import type { Appointment } from '#shared/schemas/appointment';
import { formatAppointmentTime } from '#client/lib/format.ts';
import { OverviewPanel } from './overview-panel.tsx';

/** The next 5 appointments within 7 days, soonest first (the server picks them). */
export function UpcomingAppointments({ appointments }: { appointments: Appointment[] }) {
  return (
    <OverviewPanel title="Upcoming Appointments" link={{ to: '/dashboard/appointments', label: 'View all appointments' }}>
      {appointments.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">No upcoming appointments</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {appointments.map((appointment) => (
            <li key={appointment.id} className="py-3">
              <div className="flex items-start justify-between gap-3">
                {appointment.lead && appointment.lead_id ? (
                  <Link
                    to={`/dashboard/leads/${encodeURIComponent(appointment.lead_id)}`}
                    className="min-w-0 truncate font-medium text-blue-800 hover:underline"
                  >
                    {appointment.lead.full_name}
                  </Link>
                ) : (
                  <p className="min-w-0 truncate font-medium text-slate-900">Unknown Lead</p>
                )}
                <span className="shrink-0 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700">
                  {appointment.type}
                </span>
              </div>
              <p className="text-sm text-slate-600">{formatAppointmentTime(appointment.date, appointment.time)}</p>
              {appointment.notes ? <p className="mt-1 text-sm break-words text-slate-500">{appointment.notes}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </OverviewPanel>
  );
}
