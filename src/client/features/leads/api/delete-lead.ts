import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppointmentsOnDelete, DeleteLeadResponse } from '#shared/schemas/lead-privacy';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export type DeleteLeadInput = string | { id: string; appointments?: AppointmentsOnDelete };

/** Deletes a lead; its appointments are kept ("Unknown Lead") unless asked to cancel or delete them. */
export const deleteLead = (input: DeleteLeadInput) => {
  const { id, appointments = 'keep' } = typeof input === 'string' ? { id: input } : input;
  const query = appointments === 'keep' ? '' : `?appointments=${appointments}`;
  return apiRequest<DeleteLeadResponse>('DELETE', `${apiPath`/api/leads/${id}`}${query}`);
};

export function useDeleteLead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteLead,
    // Not awaited: the caller's callbacks (toast, leaving the lead page) run before the page
    // refetches its lead, finds it gone and unmounts them.
    onSuccess: (_data, input) => {
      void client.invalidateQueries({ queryKey: queryKeys.leads.all });
      // Cancelled or deleted appointments change the calendar and the Overview too.
      if (typeof input !== 'string' && input.appointments && input.appointments !== 'keep') {
        void client.invalidateQueries({ queryKey: queryKeys.appointments.all });
        void client.invalidateQueries({ queryKey: queryKeys.overview });
      }
    },
  });
}
