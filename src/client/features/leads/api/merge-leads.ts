import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LeadDetail } from '#shared/schemas/lead';
import type { MergeRequest } from '#shared/schemas/lead-privacy';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { leadsQueryKey } from './get-leads.ts';

export const mergeLeads = ({ id, ...body }: MergeRequest & { id: string }) => apiRequest<LeadDetail>('POST', apiPath`/api/leads/${id}/merge`, body);

/** Merges a duplicate into this lead (which is kept); every lead list and the calendar refresh. */
export function useMergeLeads() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: mergeLeads,
    // Not awaited: the dialog's own callbacks (toast, closing) run before the lists change under it.
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: leadsQueryKey });
      void client.invalidateQueries({ queryKey: ['appointments'] });
    },
  });
}
