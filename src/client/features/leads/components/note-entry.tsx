import { NOTE_MAX_LENGTH } from '#shared/constants';
import { useState } from 'react';
import { ConfirmDialog } from '#client/components/ui/lazy-dialog.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import type { Note } from '#shared/schemas/lead-workspace';
import { ApiError } from '#client/lib/api-client.ts';
import { useDeleteNote, useUpdateNote } from '../api/notes.ts';
import { EntryMeta } from './entry-meta.tsx';
import { LinkedText } from './linked-text.tsx';
import { Button } from '#client/components/ui/button.tsx';

export const DELETE_NOTE_CONFIRMATION = 'Are you sure you want to delete this note? This action cannot be undone.';

const small = 'rounded px-2 py-1 text-xs font-medium hover:bg-slate-100 disabled:opacity-60';

/** The server's reason when it is one a person can act on (a 403 or 400), else the generic text. */
const failure = (error: unknown, fallback: string) =>
  error instanceof ApiError && (error.status === 403 || error.status === 400) ? error.message : fallback;

/** A note in the timeline: its text (line breaks and links kept), author and time; its author may edit or delete it. */
export function NoteEntry({ note, mine }: { note: Note; mine: boolean }) {
  const update = useUpdateNote();
  const remove = useDeleteNote();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const edited = note.updated_at !== note.created_at;

  const save = () => {
    if (draft === null) return;
    if (draft.trim() === '') return setError('Note is required');
    if (draft === note.body) return setDraft(null);
    update.mutate(
      { leadId: note.lead_id, noteId: note.id, body: draft },
      {
        onSuccess: () => {
          setDraft(null);
          toast.success('Note updated.');
        },
        onError: (err) => {
          console.error('Updating the note failed', err);
          toast.error(failure(err, 'Failed to update the note.'));
        },
      },
    );
  };

  const confirmDelete = () =>
    remove.mutate(
      { leadId: note.lead_id, noteId: note.id },
      {
        onSuccess: () => toast.success('Note deleted.'),
        onError: (err) => {
          console.error('Deleting the note failed', err);
          toast.error(failure(err, 'Failed to delete the note.'));
        },
        onSettled: () => setConfirming(false),
      },
    );

  return (
    <article aria-label={`Note by ${note.author_name ?? 'a removed account'}`} className="min-w-0 space-y-1 text-sm">
      <p className="font-medium text-slate-900">Note</p>
      <EntryMeta who={note.author_name ?? 'A removed account'} at={note.created_at} />
      {draft !== null ? (
        <div className="space-y-2">
          <TextareaField
            label="Edit note"
            rows={4}
            maxLength={NOTE_MAX_LENGTH}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            error={error}
          />
          <div className="flex gap-2">
            <Button onClick={save} disabled={update.isPending} size="sm">
              {update.isPending ? 'Saving...' : 'Save note'}
            </Button>
            <Button onClick={() => setDraft(null)} variant="secondary" size="sm">
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="rounded-md bg-amber-50 px-3 py-2 text-slate-800">
          <LinkedText text={note.body} />
          {edited ? <p className="mt-1 text-xs text-slate-500">(edited)</p> : null}
        </div>
      )}
      {mine && draft === null ? (
        <div className="flex gap-1">
          <button
            type="button"
            onClick={() => {
              setError(undefined);
              setDraft(note.body);
            }}
            className={`${small} text-blue-700`}
          >
            Edit note
          </button>
          <button type="button" onClick={() => setConfirming(true)} className={`${small} text-red-700`}>
            Delete note
          </button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete note"
        description={DELETE_NOTE_CONFIRMATION}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={confirmDelete}
      />
    </article>
  );
}
