import { useState, type FormEvent } from 'react';
import type { LeadDetail } from '#shared/schemas/lead';
import type { LostReason, PipelineStage } from '#shared/schemas/pipeline';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { usePatchLead } from '../api/patch-lead.ts';

/**
 * A deal moved to a Dropped stage says why: one of the firm's lost reasons (Settings →
 * Pipeline), sent with the stage in one change.
 */
export function LoseDealDialog({
  lead,
  stage,
  reasons,
  onClose,
}: {
  lead: LeadDetail;
  /** The Dropped stage chosen; undefined: closed. */
  stage: PipelineStage | undefined;
  reasons: LostReason[];
  onClose: () => void;
}) {
  return (
    <Modal
      open={stage !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={`Why was ${lead.full_name}’s deal lost?`}
      description={stage ? `The lead moves to ${stage.name}.` : undefined}
    >
      {stage ? <LoseDealForm lead={lead} stage={stage} reasons={reasons} onClose={onClose} /> : null}
    </Modal>
  );
}

function LoseDealForm({
  lead,
  stage,
  reasons,
  onClose,
}: {
  lead: LeadDetail;
  stage: PipelineStage;
  reasons: LostReason[];
  onClose: () => void;
}) {
  const patch = usePatchLead(lead.id);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) return setError('Choose why the deal was lost');
    patch.mutate(
      { stage_id: stage.id, lost_reason: reason },
      {
        onSuccess: () => {
          toast.success(`Moved to ${stage.name}: ${reason}.`);
          onClose();
        },
        onError: (e) => {
          console.error('Marking the deal lost failed', e);
          if (e instanceof ApiError && e.fields?.lost_reason) return setError(e.fields.lost_reason);
          toast.error(e instanceof ApiError && e.status < 500 ? e.message : 'Failed to update lead');
        },
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="Why the deal was lost">
      {reasons.length === 0 ? (
        <p className="text-sm text-slate-700">The firm has no lost reasons yet: an owner adds them in Settings → Pipeline.</p>
      ) : null}
      <SelectField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} error={error}>
        <option value="">Choose a reason</option>
        {reasons.map((r) => (
          <option key={r.id} value={r.name}>
            {r.name}
          </option>
        ))}
      </SelectField>
      <FormActions busy={patch.isPending} label="Mark lost" busyLabel="Saving..." onCancel={onClose} />
    </form>
  );
}
