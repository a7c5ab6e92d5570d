import { useState, type FormEvent } from 'react';
import type { LostReason, PipelineStage } from '#shared/schemas/pipeline';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';

/**
 * A deal moved to a Dropped stage says why: one of the firm's lost reasons (Settings →
 * Pipeline), sent with the stage in one change (the lead page's Stage menu, the board's Lost).
 * `onConfirm` sends it; its `fail` puts a message under the Reason.
 */
export function LoseDealDialog({
  leadName,
  stage,
  reasons,
  busy,
  onConfirm,
  onClose,
}: {
  leadName: string;
  /** The Dropped stage chosen; undefined: closed. */
  stage: PipelineStage | { id: string; name: string } | undefined;
  reasons: LostReason[];
  busy: boolean;
  onConfirm: (reason: string, fail: (message: string) => void) => void;
  onClose: () => void;
}) {
  return (
    <Modal
      open={stage !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={`Why was ${leadName}’s deal lost?`}
      description={stage ? `The lead moves to ${stage.name}.` : undefined}
    >
      {stage ? <LoseDealForm reasons={reasons} busy={busy} onConfirm={onConfirm} onClose={onClose} /> : null}
    </Modal>
  );
}

function LoseDealForm({
  reasons,
  busy,
  onConfirm,
  onClose,
}: {
  reasons: LostReason[];
  busy: boolean;
  onConfirm: (reason: string, fail: (message: string) => void) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) return setError('Choose why the deal was lost');
    onConfirm(reason, setError);
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
      <FormActions busy={busy} label="Mark lost" busyLabel="Saving..." onCancel={onClose} />
    </form>
  );
}
