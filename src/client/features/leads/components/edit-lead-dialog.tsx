import { useState } from 'react';
import type { LeadDetail } from '#shared/schemas/lead';
import { ApiError } from '#client/lib/api-client.ts';
import { Modal } from '#client/components/ui/modal.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useLead } from '../api/get-lead.ts';
import { useUpdateLead } from '../api/update-lead.ts';
import { useCheckedForm } from '#client/lib/use-checked-form.ts';
import { STATUS_OPTIONS, buildLeadPatch, checkEditLeadForm, toEditFormValues } from '../lead-form-model.ts';
import { serverLeadFieldErrors } from '../server-field-errors.ts';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { LeadFormFields } from './lead-form-fields.tsx';
import { LeadSourceDetails } from './lead-source.tsx';
import { StatusHistory } from './status-history.tsx';

type Props = { leadId: string | null; onClose: () => void };

/** Edit Lead: pre-filled from the server, sends only what changed, shows the status history. */
export function EditLeadDialog({ leadId, onClose }: Props) {
  const lead = useLead(leadId);
  let body;
  if (lead.data) body = <EditLeadForm key={lead.data.id} lead={lead.data} onDone={onClose} />;
  else if (lead.isError) body = <LoadError error={lead.error} />;
  else body = <Spinner className="py-10" label="Loading lead..." />;
  return (
    <Modal open={leadId !== null} onOpenChange={(open) => !open && onClose()} title="Edit Lead">
      {body}
    </Modal>
  );
}

function LoadError({ error }: { error: Error }) {
  const gone = error instanceof ApiError && error.status === 404;
  return <p className="py-6 text-center text-sm text-red-700">{gone ? 'This lead no longer exists.' : 'This lead could not be loaded.'}</p>;
}

function EditLeadForm({ lead, onDone }: { lead: LeadDetail; onDone: () => void }) {
  const updateLead = useUpdateLead();
  // What the form started with: the PATCH carries only the fields changed since then.
  const [initial] = useState(() => toEditFormValues(lead));
  const form = useCheckedForm(initial, checkEditLeadForm);

  const onSubmit = form.handleSubmit(async (values) => {
    const patch = buildLeadPatch(initial, values);
    if (lead.from_form) delete patch.message; // the customer's words are read-only
    if (Object.keys(patch).length === 0) return onDone();
    try {
      await updateLead.mutateAsync({ id: lead.id, patch });
    } catch (error) {
      console.error('Updating the lead failed', error);
      const fields = serverLeadFieldErrors(error);
      if (fields) form.setErrors(fields);
      toast.error('Failed to update lead');
      return;
    }
    toast.success('Lead updated successfully');
    onDone();
  });

  return (
    <>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-label="Edit Lead">
        <LeadFormFields field={form.field} messageReadOnly={lead.from_form} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField label="Contacted" {...form.field('contacted')}>
            <option value="no">No</option>
            <option value="yes">Yes</option>
          </SelectField>
          <SelectField label="Status" {...form.field('status')}>
            {STATUS_OPTIONS.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </SelectField>
        </div>
        <FormActions busy={form.submitting} label="Update Lead" busyLabel="Updating..." onCancel={onDone} />
      </form>
      <LeadSourceDetails lead={lead} />
      <StatusHistory history={lead.status_history} />
    </>
  );
}
