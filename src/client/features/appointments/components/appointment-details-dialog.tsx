import { CalendarPlus, Trash2 } from '#client/components/icons.tsx';
import { Link } from 'react-router';
import type { Appointment } from '#shared/schemas/appointment';
import { Modal } from '#client/components/ui/modal.tsx';
import { formatDate } from '#client/lib/format.ts';
import { appointmentIcsUrl } from '../api/delete-appointment.ts';
import { formatAppointmentDate, formatClock } from '../calendar-month.ts';
import { AppointmentTypeBadge } from './appointment-type-badge.tsx';
import { buttonClass } from '#client/components/ui/button.tsx';

type Props = {
  appointment: Appointment | null;
  onClose: () => void;
  onDelete: (appointment: Appointment) => void;
  onEdit: (appointment: Appointment) => void;
  onStatus: (appointment: Appointment, status: Appointment['status']) => void;
};

const secondary = 'rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50';

const STATUS_LABEL = { scheduled: 'Scheduled', completed: 'Completed', cancelled: 'Cancelled', no_show: 'No-show' } as const;

/** Appointment Details: lead, date and time, type, notes, .ics download, delete and Close. */
export function AppointmentDetailsDialog({ appointment, ...actions }: Props) {
  return (
    <Modal open={appointment !== null} onOpenChange={(open) => !open && actions.onClose()} title="Appointment Details">
      {appointment ? <Details appointment={appointment} {...actions} /> : null}
    </Modal>
  );
}

function Details({ appointment, onClose, onDelete, onEdit, onStatus }: Omit<Props, 'appointment'> & { appointment: Appointment }) {
  const { lead } = appointment;
  return (
    <div className="space-y-5">
      <dl className="grid grid-cols-1 gap-x-4 gap-y-3 text-sm sm:grid-cols-[8rem_1fr]">
        <dt className="font-medium text-slate-500">Lead</dt>
        <dd className="text-slate-900">
          {lead && appointment.lead_id ? (
            <Link to={`/dashboard/leads/${encodeURIComponent(appointment.lead_id)}`} className="font-medium text-blue-700 hover:underline">
              {lead.full_name}
            </Link>
          ) : (
            'Unknown Lead'
          )}
        </dd>
        {lead ? (
          <>
            <dt className="font-medium text-slate-500">Email</dt>
            <dd className="break-all">
              <a href={`mailto:${lead.email}`} className="text-blue-700 hover:underline">
                {lead.email}
              </a>
            </dd>
            <dt className="font-medium text-slate-500">Phone</dt>
            <dd>
              <a href={`tel:${lead.phone.replace(/[^\d+]/g, '')}`} className="text-blue-700 hover:underline">
                {lead.phone}
              </a>
            </dd>
          </>
        ) : null}
        {appointment.booked_as ? (
          <>
            <dt className="font-medium text-slate-500">Booked as</dt>
            <dd className="text-slate-900">
              {appointment.booked_as.phone
                ? `${appointment.booked_as.full_name}, ${appointment.booked_as.phone}`
                : appointment.booked_as.full_name}
              <span className="block text-slate-500">
                From a repeat form with this lead’s email ({formatDate(appointment.booked_as.at, 'MMM d, yyyy h:mm a')}). The lead’s details
                were not changed.
              </span>
            </dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-500">Date</dt>
        <dd className="text-slate-900">{formatAppointmentDate(appointment, 'MMMM d, yyyy')}</dd>
        <dt className="font-medium text-slate-500">Time</dt>
        <dd className="text-slate-900">{formatClock(appointment.time)}</dd>
        <dt className="font-medium text-slate-500">Duration</dt>
        <dd className="text-slate-900">{appointment.duration_minutes} minutes</dd>
        <dt className="font-medium text-slate-500">Host</dt>
        <dd className="text-slate-900">{appointment.host_name ?? 'Nobody (their account is gone)'}</dd>
        <dt className="font-medium text-slate-500">Type</dt>
        <dd>
          <AppointmentTypeBadge type={appointment.type} />
        </dd>
        {appointment.location ? (
          <>
            <dt className="font-medium text-slate-500">Location</dt>
            <dd className="break-words text-slate-900">{appointment.location}</dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-500">Status</dt>
        <dd className="text-slate-900">
          {STATUS_LABEL[appointment.status]}
          {appointment.status === 'cancelled' && appointment.cancelled_by
            ? ` by ${appointment.cancelled_by === 'lead' ? 'the lead' : 'staff'}`
            : ''}
          {appointment.source === 'booking' ? ' · booked online by the lead' : ''}
        </dd>
        {appointment.notes ? (
          <>
            <dt className="font-medium text-slate-500">Notes</dt>
            <dd className="break-words whitespace-pre-wrap text-slate-900">{appointment.notes}</dd>
          </>
        ) : null}
      </dl>
      <div className="flex flex-wrap gap-2">
        <button type="button" onClick={() => onEdit(appointment)} className={secondary}>
          Edit
        </button>
        {appointment.status === 'scheduled' ? (
          <>
            <button type="button" onClick={() => onStatus(appointment, 'cancelled')} className={secondary}>
              Cancel appointment
            </button>
            <button type="button" onClick={() => onStatus(appointment, 'completed')} className={secondary}>
              Mark as completed
            </button>
            <button type="button" onClick={() => onStatus(appointment, 'no_show')} className={secondary}>
              Mark as no-show
            </button>
          </>
        ) : (
          <button type="button" onClick={() => onStatus(appointment, 'scheduled')} className={secondary}>
            Schedule again
          </button>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4">
        <div className="flex items-center gap-2">
          <a href={appointmentIcsUrl(appointment.id)} download className={buttonClass({ variant: 'secondary', size: 'sm' })}>
            <CalendarPlus aria-hidden="true" className="size-4" />
            Add to calendar (.ics)
          </a>
          <button
            type="button"
            onClick={() => onDelete(appointment)}
            aria-label="Delete appointment"
            className="rounded-md border border-red-200 p-2 text-red-600 hover:bg-red-50"
          >
            <Trash2 aria-hidden="true" className="size-4" />
          </button>
        </div>
        <button
          type="button"
          onClick={onClose}
          className="rounded-md bg-slate-800 px-4 py-2 text-sm font-medium text-white hover:bg-slate-900"
        >
          Close
        </button>
      </div>
    </div>
  );
}
