import { useState } from 'react';
import { APPOINTMENT_TYPES } from '#shared/constants';
import type { Appointment, CreateAppointmentRequest } from '#shared/schemas/appointment';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useCheckedForm } from '#client/lib/use-checked-form.ts';
import { useCreateAppointment, useUpdateAppointment } from '../api/create-appointment.ts';
import { formatClock } from '../calendar-month.ts';
import { EMPTY_SCHEDULE_FORM, checkScheduleForm, formOf, serverFieldErrors } from '../schedule-form-model.ts';
import type { LeadOption } from '../api/search-leads.ts';
import { LeadCombobox } from './lead-combobox.tsx';
import { useAdmins } from '#client/lib/api/admins.ts';
import { useCurrentUser } from '#client/lib/auth.tsx';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Edit (and reschedule) this one instead of scheduling a new one. */
  appointment?: Appointment | null;
  /** A new appointment's lead, chosen already (the lead page's Schedule appointment). */
  lead?: LeadOption | null;
};

type Conflict = NonNullable<ApiError['conflicts']>[number];

/**
 * Schedule Appointment, or Edit Appointment with the same form prefilled: lead, date, time,
 * length, type, place and notes, validated with the shared schema. Over another appointment,
 * the server answers 409 with the ones in the way; they are listed, and "Schedule anyway"
 * sends it again with allow_overlap.
 */
export function ScheduleAppointmentDialog({ open, onOpenChange, appointment, lead }: Props) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={appointment ? 'Edit Appointment' : 'Schedule Appointment'}>
      <ScheduleForm appointment={appointment ?? null} lead={lead ?? null} onDone={() => onOpenChange(false)} />
    </Modal>
  );
}

function ScheduleForm({ appointment, lead, onDone }: { appointment: Appointment | null; lead: LeadOption | null; onDone: () => void }) {
  const createAppointment = useCreateAppointment();
  const updateAppointment = useUpdateAppointment();
  // A 409's report: the appointments in the way, and whether the host's own calendar is busy then.
  const [conflicts, setConflicts] = useState<{ appointments: Conflict[]; busyOutside: boolean } | null>(null);
  const editing = appointment !== null;
  const user = useCurrentUser();
  const people = useAdmins();
  const blank = { ...EMPTY_SCHEDULE_FORM, lead_id: lead?.id ?? '', host_id: user?.id ?? '' };
  const form = useCheckedForm(appointment ? formOf(appointment) : blank, checkScheduleForm);
  const { field, errors } = form;

  const save = async (values: CreateAppointmentRequest, allowOverlap: boolean) => {
    const { lead_id: _lead, ...fields } = values;
    const body = { ...fields, notes: values.notes ?? null, location: values.location ?? null, allow_overlap: allowOverlap || undefined };
    try {
      if (appointment) await updateAppointment.mutateAsync({ id: appointment.id, ...body });
      else await createAppointment.mutateAsync({ ...values, allow_overlap: allowOverlap || undefined });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setConflicts({ appointments: error.conflicts ?? [], busyOutside: error.busyOutside });
        return;
      }
      console.error('Saving the appointment failed', error);
      const fields = serverFieldErrors(error);
      form.setErrors(fields);
      toast.error(editing ? 'Failed to update appointment' : 'Failed to schedule appointment');
      return;
    }
    toast.success(editing ? 'Appointment updated successfully' : 'Appointment scheduled successfully');
    setConflicts(null);
    form.reset(blank);
    onDone();
  };
  const onSubmit = form.handleSubmit((values) => save(values, false));
  const anyway = form.handleSubmit((values) => save(values, true));

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      className="space-y-4"
      aria-label={editing ? 'Edit Appointment' : 'Schedule Appointment'}
    >
      {appointment ? (
        <p className="text-sm text-slate-700">
          <span className="font-medium text-slate-500">Lead: </span>
          {appointment.lead?.full_name ?? 'Unknown Lead'}
        </p>
      ) : (
        <LeadCombobox
          label="Lead"
          value={form.values.lead_id}
          initial={lead}
          onChange={(id) => form.set('lead_id', id)}
          inputRef={form.refOf('lead_id')}
          error={errors.lead_id}
        />
      )}
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField label="Date" type="date" {...field('date')} />
        <TextField label="Time" type="time" {...field('time')} />
        <TextField label="Duration (minutes)" type="number" inputMode="numeric" min={5} max={720} step={5} {...field('duration_minutes')} />
      </div>
      <SelectField label="Host" {...field('host_id')}>
        {form.values.host_id === '' ? <option value="">Nobody (their account is gone)</option> : null}
        {form.values.host_id && !people.data?.admins.some((a) => a.id === form.values.host_id) ? (
          <option value={form.values.host_id}>
            {appointment?.host_name ?? (form.values.host_id === user?.id ? 'You' : 'Someone else')}
          </option>
        ) : null}
        {(people.data?.admins ?? []).map((a) => (
          <option key={a.id} value={a.id}>
            {a.id === user?.id ? `${a.display_name} (you)` : a.display_name}
          </option>
        ))}
      </SelectField>
      <SelectField label="Type" {...field('type')}>
        <option value="">Select appointment type</option>
        {APPOINTMENT_TYPES.map((type) => (
          <option key={type} value={type}>
            {type}
          </option>
        ))}
      </SelectField>
      <TextField label="Location" placeholder="Meeting link for Zoom, address for On-site (optional)" {...field('location')} />
      <TextareaField label="Notes" rows={3} placeholder="Optional" {...field('notes')} />
      {conflicts ? (
        <div role="alert" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {conflicts.appointments.length > 0 || !conflicts.busyOutside ? (
            <p className="font-semibold">This time overlaps another appointment.</p>
          ) : null}
          {conflicts.busyOutside ? <p className="font-semibold">Busy in their calendar</p> : null}
          {conflicts.appointments.length > 0 ? (
            <ul className="list-disc pl-5">
              {conflicts.appointments.map((c) => (
                <li key={c.id}>
                  {c.date} at {formatClock(c.time)}: {c.type} with {c.lead_name ?? 'Unknown Lead'}
                </li>
              ))}
            </ul>
          ) : null}
          <button
            type="button"
            disabled={form.submitting}
            onClick={() => void anyway()}
            className="rounded-md bg-amber-700 px-3 py-1.5 font-medium text-white hover:bg-amber-800 disabled:opacity-60"
          >
            {editing ? 'Save anyway' : 'Schedule anyway'}
          </button>
        </div>
      ) : null}
      <FormActions
        busy={form.submitting}
        label={editing ? 'Save Changes' : 'Schedule Appointment'}
        busyLabel={editing ? 'Saving...' : 'Scheduling...'}
        onCancel={onDone}
      />
    </form>
  );
}
