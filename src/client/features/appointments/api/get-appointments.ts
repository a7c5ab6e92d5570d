import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentListResponse } from '#shared/schemas/appointment';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Both ends included, as 'yyyy-mm-dd'; `host_id`: one person's appointments only. */
export type AppointmentRange = { from: string; to: string; host_id?: string };

export const getAppointments = ({ from, to, host_id }: AppointmentRange) =>
  apiRequest<AppointmentListResponse>(
    'GET',
    `/api/appointments?${new URLSearchParams({ from, to, ...(host_id ? { host_id } : {}) }).toString()}`,
  );

/** Only the visible range is fetched (a month grid, or a month for the list). */
export const appointmentsQueryOptions = (range: AppointmentRange) =>
  queryOptions({
    queryKey: queryKeys.appointments.list(range.from, range.to, range.host_id),
    queryFn: () => getAppointments(range),
  });

export const useAppointments = (range: AppointmentRange) => useQuery(appointmentsQueryOptions(range));
