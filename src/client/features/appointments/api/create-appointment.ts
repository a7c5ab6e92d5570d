import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Appointment, CreateAppointmentRequest, UpdateAppointmentRequest } from '#shared/schemas/appointment';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const createAppointment = (appointment: CreateAppointmentRequest) =>
  apiRequest<Appointment>('POST', '/api/appointments', appointment);

/** Schedule Appointment; every visible range refreshes. */
export function useCreateAppointment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createAppointment,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.appointments.all }),
  });
}

export const updateAppointment = ({ id, ...patch }: UpdateAppointmentRequest & { id: string }) =>
  apiRequest<Appointment>('PATCH', apiPath`/api/appointments/${id}`, patch);

/** Edit, reschedule, cancel or complete; every visible range refreshes. */
export function useUpdateAppointment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateAppointment,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.appointments.all }),
  });
}
