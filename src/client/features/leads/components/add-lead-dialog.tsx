import { useForm } from 'react-hook-form';
import { Modal } from '#client/components/ui/modal.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useCreateLead } from '../api/create-lead.ts';
import { EMPTY_LEAD_FORM, type LeadFormValues } from '#client/lib/lead-form.ts';
import { leadFormResolver } from '../lead-form-model.ts';
import { showServerFieldErrors } from '../server-field-errors.ts';
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
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LeadFormValues, unknown, Parameters<typeof createLead.mutateAsync>[0]>({
    resolver: leadFormResolver,
    defaultValues: EMPTY_LEAD_FORM,
  });

  const onSubmit = handleSubmit(async (lead) => {
    try {
      await createLead.mutateAsync(lead);
    } catch (error) {
      console.error('Adding the lead failed', error);
      showServerFieldErrors(error, setError);
      toast.error('Failed to add lead');
      return;
    }
    toast.success('Lead added successfully');
    reset(EMPTY_LEAD_FORM);
    onDone();
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-label="Add Lead">
      <LeadFormFields register={register} errors={errors} />
      <FormActions busy={isSubmitting} label="Add Lead" busyLabel="Adding..." onCancel={onDone} />
    </form>
  );
}
