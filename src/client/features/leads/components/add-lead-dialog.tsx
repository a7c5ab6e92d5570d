import type { CreateLeadRequest } from '#shared/schemas/lead';
import { Modal } from '#client/components/ui/modal.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useCreateLead } from '../api/create-lead.ts';
import { EMPTY_LEAD_FORM, type LeadFormValues } from '#client/lib/lead-form.ts';
import { useCheckedForm } from '#client/lib/use-checked-form.ts';
import { checkLeadForm } from '../lead-form-model.ts';
import { serverLeadFieldErrors } from '../server-field-errors.ts';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { LeadFormFields } from './lead-form-fields.tsx';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What the form starts with (a message in the Inbox: its sender's name and address, and its words). */
  initial?: Partial<LeadFormValues>;
  /** Another way to store it (the Inbox makes a lead of a message); the lead is added through /api/leads otherwise. */
  create?: (lead: CreateLeadRequest) => Promise<unknown>;
};

/** Add Lead: validated with the shared schema; the server stores it as New. */
export function AddLeadDialog({ open, onOpenChange, initial, create }: Props) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Add Lead">
      {open ? <AddLeadForm onDone={() => onOpenChange(false)} initial={initial} create={create} /> : null}
    </Modal>
  );
}

function AddLeadForm({ onDone, initial, create }: { onDone: () => void; initial: Props['initial']; create: Props['create'] }) {
  const createLead = useCreateLead();
  const form = useCheckedForm<LeadFormValues, CreateLeadRequest>({ ...EMPTY_LEAD_FORM, ...initial }, checkLeadForm);

  const onSubmit = form.handleSubmit(async (lead) => {
    try {
      await (create ?? createLead.mutateAsync)(lead);
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
