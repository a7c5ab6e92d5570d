import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentListResponse } from '#shared/schemas/appointment';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Both ends included, as 'yyyy-mm-dd'. */
export type AppointmentRange = { from: string; to: string };

export const getAppointments = ({ from, to }: AppointmentRange) =>
  apiRequest<AppointmentListResponse>('GET', `/api/appointments?${new URLSearchParams({ from, to }).toString()}`);

/** Only the visible range is fetched (a month grid, or a month for the list). */
export const appointmentsQueryOptions = (range: AppointmentRange) =>
  queryOptions({
    queryKey: queryKeys.appointments.list(range.from, range.to),
    queryFn: () => getAppointments(range),
  });

export const useAppointments = (range: AppointmentRange) => useQuery(appointmentsQueryOptions(range));
