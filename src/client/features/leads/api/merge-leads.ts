import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LeadDetail } from '#shared/schemas/lead';
import type { MergeRequest } from '#shared/schemas/lead-privacy';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const mergeLeads = ({ id, ...body }: MergeRequest & { id: string }) =>
  apiRequest<LeadDetail>('POST', apiPath`/api/leads/${id}/merge`, body);

/** Merges a duplicate into this lead (which is kept); every lead list and the calendar refresh. */
export function useMergeLeads() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: mergeLeads,
    // Not awaited: the dialog's own callbacks (toast, closing) run before the lists change under it.
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.leads.all });
      void client.invalidateQueries({ queryKey: queryKeys.appointments.all });
    },
  });
}
