import { Trash2 } from '#client/components/icons.tsx';
import type { Appointment } from '#shared/schemas/appointment';
import { cancelledClass, formatAppointmentDate, formatClock } from '../calendar-month.ts';
import { AppointmentTypeBadge } from './appointment-type-badge.tsx';

type Props = {
  appointments: readonly Appointment[];
  onView: (appointment: Appointment) => void;
  onDelete: (appointment: Appointment) => void;
};

/** What a call that is no longer to come became. */
const STATUS_WORD = { scheduled: 'Scheduled', cancelled: 'Cancelled', completed: 'Completed', no_show: 'No-show' } as const;

const th = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase';

/** Date & Time, Lead, Type, Notes, Actions; ascending by date and time (the server's order). */
export function AppointmentsList({ appointments, onView, onDelete }: Props) {
  if (appointments.length === 0) {
    return <p className="rounded-lg border border-slate-200 bg-white px-4 py-10 text-center text-slate-500">No appointments scheduled</p>;
  }
  return (
    // The table scrolls sideways inside its box on narrow screens instead of widening the page
    // (relative: the rows' sr-only texts are positioned, and must not escape the box).
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>
              Date &amp; Time
            </th>
            <th scope="col" className={th}>
              Lead
            </th>
            <th scope="col" className={th}>
              Type
            </th>
            <th scope="col" className={th}>
              Notes
            </th>
            <th scope="col" className={`${th} text-right`}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {appointments.map((appointment) => {
            const name = appointment.lead?.full_name ?? 'Unknown Lead';
            const when = `${formatAppointmentDate(appointment, 'MMM d, yyyy')} ${formatClock(appointment.time)}`;
            return (
              <tr key={appointment.id}>
                <td className={`px-4 py-3 whitespace-nowrap text-slate-900 ${cancelledClass(appointment)}`}>
                  <div>{formatAppointmentDate(appointment, 'MMM d, yyyy')}</div>
                  <div className="text-slate-500">{formatClock(appointment.time)}</div>
                </td>
                <td className="min-w-40 px-4 py-3">
                  <div className={`font-medium text-slate-900 ${cancelledClass(appointment)}`}>{name}</div>
                  {appointment.status !== 'scheduled' ? (
                    <div className="text-xs font-semibold text-slate-600 uppercase">{STATUS_WORD[appointment.status]}</div>
                  ) : null}
                  {appointment.lead ? <div className="break-all text-slate-500">{appointment.lead.email}</div> : null}
                </td>
                <td className="px-4 py-3">
                  <AppointmentTypeBadge type={appointment.type} />
                </td>
                <td className="max-w-xs min-w-40 px-4 py-3 text-slate-600">
                  <p className="line-clamp-2 break-words">{appointment.notes || 'No notes'}</p>
                </td>
                <td className="px-4 py-3">
                  <div className="flex items-center justify-end gap-2">
                    <button
                      type="button"
                      onClick={() => onView(appointment)}
                      className="rounded-md px-2 py-1 text-sm font-medium whitespace-nowrap text-blue-700 hover:bg-blue-50"
                    >
                      View Details
                      <span className="sr-only">
                        {' '}
                        for {name}, {when}
                      </span>
                    </button>
                    <button
                      type="button"
                      onClick={() => onDelete(appointment)}
                      aria-label={`Delete appointment with ${name} on ${when}`}
                      className="rounded-md p-1.5 text-red-600 hover:bg-red-50"
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
