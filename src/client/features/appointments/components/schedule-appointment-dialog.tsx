import { Controller, useForm } from 'react-hook-form';
import { APPOINTMENT_TYPES } from '#shared/constants';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useCreateAppointment } from '../api/create-appointment.ts';
import { EMPTY_SCHEDULE_FORM, scheduleFormResolver, serverFieldErrors, type ScheduleFormValues } from '../schedule-form-model.ts';
import { LeadCombobox } from './lead-combobox.tsx';

type Props = { open: boolean; onOpenChange: (open: boolean) => void };

/** Schedule Appointment: lead, date, time, type and notes, validated with the shared schema. */
export function ScheduleAppointmentDialog({ open, onOpenChange }: Props) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Schedule Appointment">
      <ScheduleForm onDone={() => onOpenChange(false)} />
    </Modal>
  );
}

function ScheduleForm({ onDone }: { onDone: () => void }) {
  const createAppointment = useCreateAppointment();
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ScheduleFormValues, unknown, Parameters<typeof createAppointment.mutateAsync>[0]>({
    resolver: scheduleFormResolver,
    defaultValues: EMPTY_SCHEDULE_FORM,
  });

  const onSubmit = handleSubmit(async (appointment) => {
    try {
      await createAppointment.mutateAsync(appointment);
    } catch (error) {
      console.error('Scheduling the appointment failed', error);
      for (const [field, message] of serverFieldErrors(error)) setError(field, { type: 'server', message });
      toast.error('Failed to schedule appointment');
      return;
    }
    toast.success('Appointment scheduled successfully');
    reset(EMPTY_SCHEDULE_FORM);
    onDone();
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-label="Schedule Appointment">
      <Controller
        control={control}
        name="lead_id"
        render={({ field }) => (
          <LeadCombobox label="Lead" value={field.value} onChange={field.onChange} onBlur={field.onBlur} inputRef={field.ref} error={errors.lead_id?.message} />
        )}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Date" type="date" error={errors.date?.message} {...register('date')} />
        <TextField label="Time" type="time" error={errors.time?.message} {...register('time')} />
      </div>
      <SelectField label="Type" error={errors.type?.message} {...register('type')}>
        <option value="">Select appointment type</option>
        {APPOINTMENT_TYPES.map((type) => (
          <option key={type} value={type}>
            {type}
          </option>
        ))}
      </SelectField>
      <TextareaField label="Notes" rows={4} placeholder="Optional" error={errors.notes?.message} {...register('notes')} />
      <FormActions busy={isSubmitting} label="Schedule Appointment" busyLabel="Scheduling..." onCancel={onDone} />
    </form>
  );
}
