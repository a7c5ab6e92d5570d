import { useState, type FormEvent } from 'react';
import { CALL_DURATION_MAX, CALL_OUTCOME_LABELS, CALL_OUTCOMES, type CallOutcome } from '#shared/constants';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { RadioGroup } from '#client/components/ui/radio-group.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { wholeNumberIn } from '#client/lib/whole-number.ts';
import { useLogCall } from '../api/log-call.ts';

const DURATION_RULE = 'Duration must be whole minutes from 0 to 600';

/** Log a call with the lead: how it went, how many minutes, what was said; on the timeline. */
export function LogCallDialog({ leadId, name, open, onClose }: { leadId: string; name: string; open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onOpenChange={(next) => !next && onClose()} title={`Log a call with ${name}`}>
      {open ? <LogCallForm leadId={leadId} onClose={onClose} /> : null}
    </Modal>
  );
}

function LogCallForm({ leadId, onClose }: { leadId: string; onClose: () => void }) {
  const log = useLogCall(leadId);
  const [outcome, setOutcome] = useState<CallOutcome>('connected');
  const [minutes, setMinutes] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const duration = wholeNumberIn(minutes, CALL_DURATION_MAX);
    if (duration === 'invalid') return setErrors({ duration_minutes: DURATION_RULE });
    log.mutate(
      { outcome, ...(duration !== undefined && { duration_minutes: duration }), ...(notes.trim() && { notes }) },
      {
        onSuccess: () => {
          toast.success('Call logged');
          onClose();
        },
        onError: (error) => {
          console.error('Logging the call failed', error);
          if (error instanceof ApiError && error.fields) return setErrors(error.fields);
          toast.error(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to log the call');
        },
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="Log a call">
      <RadioGroup
        legend="How did it go?"
        value={outcome}
        onChange={setOutcome}
        columns
        options={CALL_OUTCOMES.map((value) => ({ value, label: CALL_OUTCOME_LABELS[value] }))}
      />
      <TextField
        label="Duration (minutes)"
        inputMode="numeric"
        value={minutes}
        onChange={(e) => setMinutes(e.target.value)}
        error={errors.duration_minutes}
      />
      <TextareaField label="Notes" value={notes} onChange={(e) => setNotes(e.target.value)} error={errors.notes} rows={4} />
      <FormActions busy={log.isPending} label="Log call" busyLabel="Saving..." onCancel={onClose} />
    </form>
  );
}
