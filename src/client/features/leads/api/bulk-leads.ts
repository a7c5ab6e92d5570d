import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkLeadRequest, BulkLeadResponse } from '#shared/schemas/lead';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const bulkLeads = (request: BulkLeadRequest) => apiRequest<BulkLeadResponse>('POST', '/api/leads/bulk', request);

/** One action on the chosen leads; every leads query is refreshed after it. */
export function useBulkLeads() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: bulkLeads,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.leads.all }),
  });
}
