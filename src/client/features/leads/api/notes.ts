import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Note } from '#shared/schemas/lead-workspace';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const addNote = ({ leadId, body }: { leadId: string; body: string }) =>
  apiRequest<Note>('POST', apiPath`/api/leads/${leadId}/notes`, { body });

export const updateNote = ({ leadId, noteId, body }: { leadId: string; noteId: string; body: string }) =>
  apiRequest<Note>('PATCH', apiPath`/api/leads/${leadId}/notes/${noteId}`, { body });

export const deleteNote = ({ leadId, noteId }: { leadId: string; noteId: string }) =>
  apiRequest<{ id: string }>('DELETE', apiPath`/api/leads/${leadId}/notes/${noteId}`);

/** Each note change refreshes the lead's timeline (where notes are listed). */
function useNoteMutation<T>(mutationFn: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.leads.all }) });
}

export const useAddNote = () => useNoteMutation(addNote);
export const useUpdateNote = () => useNoteMutation(updateNote);
export const useDeleteNote = () => useNoteMutation(deleteNote);
