import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Appointment, CreateAppointmentRequest } from '#shared/schemas/appointment';
import { apiRequest } from '#client/lib/api-client.ts';
import { appointmentsQueryKey } from './get-appointments.ts';

export const createAppointment = (appointment: CreateAppointmentRequest) => apiRequest<Appointment>('POST', '/api/appointments', appointment);

/** Schedule Appointment; every visible range refreshes. */
export function useCreateAppointment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createAppointment,
    onSuccess: () => client.invalidateQueries({ queryKey: appointmentsQueryKey }),
  });
}
