import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Lead, UpdateLeadRequest } from '#shared/schemas/lead';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Sends only the changed fields, so a concurrent edit of another field is not undone. */
export const updateLead = ({ id, patch }: { id: string; patch: UpdateLeadRequest }) =>
  apiRequest<Lead>('PATCH', apiPath`/api/leads/${id}`, patch);

export function useUpdateLead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateLead,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.leads.all }),
  });
}
