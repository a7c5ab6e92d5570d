import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EraseResponse } from '#shared/schemas/lead-privacy';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const eraseLead = (id: string) => apiRequest<EraseResponse>('POST', apiPath`/api/leads/${id}/erase`);

/**
 * Erases the person behind a lead; what showed them (lists, calendar, Overview, the bell)
 * refreshes. The refetch is not awaited: the caller's own callbacks (toast, leaving the page)
 * must run before the lead page learns its lead is gone and unmounts them.
 */
export function useEraseLead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: eraseLead,
    onSuccess: () => {
      for (const queryKey of [queryKeys.leads.all, queryKeys.appointments.all, queryKeys.overview, queryKeys.notifications])
        void client.invalidateQueries({ queryKey });
    },
  });
}
