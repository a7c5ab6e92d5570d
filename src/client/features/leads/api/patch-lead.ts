import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LeadDetail, UpdateLeadRequest } from '#shared/schemas/lead';
import { leadQueryOptions } from './get-lead.ts';
import { queryKeys } from '#client/lib/query-keys.ts';
import { updateLead } from './update-lead.ts';

/**
 * A change made on the lead page (status, owner, deal fields, next step): only the fields
 * sent change. The answer goes into the page's cache at once, so a select does not flick back
 * to its old value while the refetch (of the page's timeline and every list) runs.
 */
export function usePatchLead(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: UpdateLeadRequest) => updateLead({ id, patch }),
    onSuccess: (lead) => {
      client.setQueryData<LeadDetail>(leadQueryOptions(id).queryKey, (old) => (old ? { ...old, ...lead } : old));
      void client.invalidateQueries({ queryKey: queryKeys.leads.all });
    },
  });
}
