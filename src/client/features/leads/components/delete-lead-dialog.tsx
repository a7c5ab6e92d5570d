import { useState } from 'react';
import type { Lead } from '#shared/schemas/lead';
import type { AppointmentCounts, AppointmentsOnDelete } from '#shared/schemas/lead-privacy';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { RadioGroup } from '#client/components/ui/radio-group.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useAppointmentCounts } from '../api/get-appointment-counts.ts';
import { useDeleteLead } from '../api/delete-lead.ts';

// docs/product-rules.md, "Confirmations", word for word.
export const DELETE_CONFIRMATION = 'Are you sure you want to delete this lead? This action cannot be undone.';

export const APPOINTMENT_CHOICES: { value: AppointmentsOnDelete; label: string }[] = [
  { value: 'keep', label: 'Keep them (shown as Unknown Lead)' },
  { value: 'cancel', label: 'Cancel them' },
  { value: 'delete', label: 'Delete them' },
];

type Props = {
  /** The lead to delete; null keeps the dialog closed. */
  lead: Pick<Lead, 'id' | 'full_name'> | null;
  onClose: () => void;
  /** After the lead is gone (the lead page navigates away). */
  onDeleted?: () => void;
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "This lead has 3 appointments, 1 still to come." */
export function appointmentsSentence({ total, upcoming }: AppointmentCounts): string {
  return `This lead has ${plural(total, 'appointment')}${upcoming > 0 ? `, ${upcoming} still to come` : ''}.`;
}

/**
 * The delete confirmation (docs/product-rules.md, "Confirmations"). A lead with appointments
 * also asks what becomes of them: kept as "Unknown Lead" (the default), cancelled (the person
 * is emailed, as when staff cancel one), or deleted. Until the count arrives, Delete waits; if
 * it cannot be had, the lead is deleted as before, keeping its appointments.
 */
export function DeleteLeadDialog({ lead, onClose, onDeleted }: Props) {
  const counts = useAppointmentCounts(lead?.id ?? null);
  const deleteLead = useDeleteLead();
  // The choice belongs to the lead it was made for: another lead starts from Keep.
  const [choice, setChoice] = useState<{ leadId: string; value: AppointmentsOnDelete } | null>(null);
  const value = choice && choice.leadId === lead?.id ? choice.value : 'keep';
  const withAppointments = counts.data && counts.data.total > 0 ? counts.data : undefined;

  const confirm = () => {
    if (!lead) return;
    deleteLead.mutate(
      { id: lead.id, appointments: withAppointments ? value : 'keep' },
      {
        onSuccess: () => {
          toast.success('Lead deleted successfully');
          onDeleted?.();
        },
        onError: (error) => {
          console.error('Deleting the lead failed', error);
          toast.error('Failed to delete lead');
        },
        onSettled: onClose,
      },
    );
  };

  return (
    <ConfirmDialog
      open={lead !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Delete lead"
      description={DELETE_CONFIRMATION}
      confirmLabel="Delete"
      busy={deleteLead.isPending || counts.isPending}
      onConfirm={confirm}
    >
      {withAppointments && lead ? (
        <div className="mt-4 space-y-2">
          <p className="text-sm text-slate-600">{appointmentsSentence(withAppointments)}</p>
          <RadioGroup
            legend="What should happen to them?"
            value={value}
            onChange={(next) => setChoice({ leadId: lead.id, value: next })}
            options={APPOINTMENT_CHOICES}
          />
        </div>
      ) : null}
    </ConfirmDialog>
  );
}
