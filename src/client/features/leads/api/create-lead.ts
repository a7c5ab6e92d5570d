import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateLeadRequest, Lead } from '#shared/schemas/lead';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const createLead = (lead: CreateLeadRequest) => apiRequest<Lead>('POST', '/api/leads', lead);

/** Add Lead: the server stores it as New; the lists refresh. */
export function useCreateLead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createLead,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.leads.all }),
  });
}
