import { NOTE_MAX_LENGTH } from '#shared/constants';
import { useState, type FormEvent } from 'react';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useAddNote } from '../api/notes.ts';
import { Button } from '#client/components/ui/button.tsx';

/** Adds a note to the lead: plain text, line breaks kept, up to 20,000 characters (a call's minutes pasted whole). */
export function NoteComposer({ leadId }: { leadId: string }) {
  const add = useAddNote();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (body.trim() === '') return setError('Note is required');
    setError(undefined);
    add.mutate(
      { leadId, body },
      {
        onSuccess: () => {
          setBody('');
          toast.success('Note added.');
        },
        onError: (err) => {
          console.error('Adding the note failed', err);
          if (err instanceof ApiError && err.fields?.body) setError(err.fields.body);
          toast.error('Failed to add the note.');
        },
      },
    );
  };

  return (
    <section aria-labelledby="notes-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h2 id="notes-heading" className="text-lg font-semibold text-slate-900">
        Notes
      </h2>
      <form noValidate onSubmit={submit} aria-label="Add a note" className="mt-3 space-y-2">
        <TextareaField
          label="New note"
          rows={3}
          maxLength={NOTE_MAX_LENGTH}
          placeholder="What was said, what to remember. Links work."
          value={body}
          onChange={(e) => setBody(e.target.value)}
          error={error}
        />
        <div className="flex items-center justify-between gap-3">
          <p className="text-xs text-slate-500">Notes appear in the timeline below. Only you can change yours.</p>
          <Button type="submit" disabled={add.isPending} className="shrink-0">
            {add.isPending ? 'Adding...' : 'Add note'}
          </Button>
        </div>
      </form>
    </section>
  );
}
