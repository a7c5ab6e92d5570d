import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { leadsQueryKey } from './get-leads.ts';

export const deleteLead = (id: string) => apiRequest<{ id: string }>('DELETE', apiPath`/api/leads/${id}`);

export function useDeleteLead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteLead,
    onSuccess: () => client.invalidateQueries({ queryKey: leadsQueryKey }),
  });
}
