import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentCounts } from '#shared/schemas/lead-privacy';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const getAppointmentCounts = (id: string) => apiRequest<AppointmentCounts>('GET', apiPath`/api/leads/${id}/appointment-counts`);

export const appointmentCountsQueryOptions = (id: string) =>
  // Asked afresh each time the delete confirmation opens.
  queryOptions({ queryKey: queryKeys.leads.appointmentCounts(id), queryFn: () => getAppointmentCounts(id), gcTime: 0 });

/** How many appointments a lead has (and still to come): the delete confirmation asks what to do with them. */
export const useAppointmentCounts = (id: string | null) => useQuery({ ...appointmentCountsQueryOptions(id ?? ''), enabled: id !== null });
