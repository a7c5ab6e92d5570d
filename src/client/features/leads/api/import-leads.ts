import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LeadImportRequest, LeadImportResult } from '#shared/schemas/lead-import';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const importLeads = (request: LeadImportRequest) => apiRequest<LeadImportResult>('POST', '/api/leads/import', request);

/** Preview (dry_run) or import; an import refreshes the lists. */
export function useImportLeads() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importLeads,
    onSuccess: (result) => {
      if (!result.dry_run) void client.invalidateQueries({ queryKey: queryKeys.leads.all });
    },
  });
}
