import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const deleteAppointment = (id: string) => apiRequest<{ id: string }>('DELETE', apiPath`/api/appointments/${id}`);

/** The .ics download for one appointment (the session cookie goes with the link). */
export const appointmentIcsUrl = (id: string) => apiPath`/api/appointments/${id}/ics`;

export function useDeleteAppointment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteAppointment,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.appointments.all }),
  });
}
