import { Modal } from '#client/components/ui/modal.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useCreateLead } from '../api/create-lead.ts';
import { EMPTY_LEAD_FORM, type LeadFormValues } from '#client/lib/lead-form.ts';
import { useCheckedForm } from '#client/lib/use-checked-form.ts';
import { checkLeadForm } from '../lead-form-model.ts';
import { serverLeadFieldErrors } from '../server-field-errors.ts';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { LeadFormFields } from './lead-form-fields.tsx';

type Props = { open: boolean; onOpenChange: (open: boolean) => void };

/** Add Lead: validated with the shared schema; the server stores it as New. */
export function AddLeadDialog({ open, onOpenChange }: Props) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Add Lead">
      <AddLeadForm onDone={() => onOpenChange(false)} />
    </Modal>
  );
}

function AddLeadForm({ onDone }: { onDone: () => void }) {
  const createLead = useCreateLead();
  const form = useCheckedForm<LeadFormValues, Parameters<typeof createLead.mutateAsync>[0]>(EMPTY_LEAD_FORM, checkLeadForm);

  const onSubmit = form.handleSubmit(async (lead) => {
    try {
      await createLead.mutateAsync(lead);
    } catch (error) {
      console.error('Adding the lead failed', error);
      const fields = serverLeadFieldErrors(error);
      if (fields) form.setErrors(fields);
      toast.error('Failed to add lead');
      return;
    }
    toast.success('Lead added successfully');
    form.reset(EMPTY_LEAD_FORM);
    onDone();
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-label="Add Lead">
      <LeadFormFields field={form.field} />
      <FormActions busy={form.submitting} label="Add Lead" busyLabel="Adding..." onCancel={onDone} />
    </form>
  );
}
