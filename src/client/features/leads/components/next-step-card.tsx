import { LEAD_DEAL_LIMITS } from '#shared/constants';
import { useState, type FormEvent } from 'react';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import type { LeadDetail } from '#shared/schemas/lead';
import { ApiError } from '#client/lib/api-client.ts';
import { followUpText, isOverdue, localDate } from '#client/lib/follow-up.ts';
import { usePatchLead } from '../api/patch-lead.ts';
import { Button } from '#client/components/ui/button.tsx';

type Errors = { follow_up_on?: string; follow_up_note?: string };

const button =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-60';

/** The next step: a date (its owner is notified that day) and a short text; set, changed or cleared here. */
export function NextStepCard({ lead }: { lead: LeadDetail }) {
  const patch = usePatchLead(lead.id);
  const [editing, setEditing] = useState(false);
  const [on, setOn] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const open = () => {
    setOn(lead.follow_up_on ?? '');
    setNote(lead.follow_up_note ?? '');
    setErrors({});
    setEditing(true);
  };

  const save = (follow_up_on: string | null, follow_up_note: string | null, done: string) =>
    patch.mutate(
      { follow_up_on, follow_up_note },
      {
        onSuccess: () => {
          setEditing(false);
          toast.success(done);
        },
        onError: (error) => {
          console.error('Saving the next step failed', error);
          if (error instanceof ApiError && error.fields)
            setErrors({ follow_up_on: error.fields.follow_up_on, follow_up_note: error.fields.follow_up_note });
          toast.error('Failed to update lead');
        },
      },
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (on === '') return setErrors({ follow_up_on: 'Choose a date for the next step' });
    save(on, note.trim() === '' ? null : note.trim(), 'Next step saved.');
  };

  const due = lead.follow_up_on;
  const overdue = due !== null && isOverdue(due);
  const today = due !== null && due === localDate();

  return (
    <section aria-labelledby="next-step-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h2 id="next-step-heading" className="text-lg font-semibold text-slate-900">
        Next step
      </h2>
      {editing ? (
        <form noValidate onSubmit={submit} aria-label="Next step" className="mt-3 space-y-3">
          <TextField label="Follow up on" type="date" value={on} onChange={(e) => setOn(e.target.value)} error={errors.follow_up_on} />
          <TextField
            label="What to do"
            maxLength={LEAD_DEAL_LIMITS.followUpNote}
            placeholder="Send the zoning report"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            error={errors.follow_up_note}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={patch.isPending} size="sm">
              {patch.isPending ? 'Saving...' : 'Save'}
            </Button>
            <button type="button" onClick={() => setEditing(false)} className={button}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          {due ? (
            <p
              className={`mt-2 rounded-md px-3 py-2 text-sm break-words ${overdue ? 'border border-red-200 bg-red-50 text-red-900' : 'bg-slate-50 text-slate-800'}`}
              data-testid="next-step"
            >
              {overdue ? <span className="font-semibold">Overdue: </span> : today ? <span className="font-semibold">Today: </span> : null}
              {followUpText(due, lead.follow_up_note)}
            </p>
          ) : (
            <p className="mt-2 text-sm text-slate-500">No next step set.</p>
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            <button type="button" onClick={open} className={button}>
              {due ? 'Change' : 'Set next step'}
            </button>
            {due ? (
              <button type="button" disabled={patch.isPending} onClick={() => save(null, null, 'Next step cleared.')} className={button}>
                Clear
              </button>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}
