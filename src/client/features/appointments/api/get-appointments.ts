import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentListResponse } from '#shared/schemas/appointment';
import { apiRequest } from '#client/lib/api-client.ts';

/** Both ends included, as 'yyyy-mm-dd'. */
export type AppointmentRange = { from: string; to: string };

/** Every appointments query starts with this key, so a change can refresh them all. */
export const appointmentsQueryKey = ['appointments'] as const;

export const getAppointments = ({ from, to }: AppointmentRange) =>
  apiRequest<AppointmentListResponse>('GET', `/api/appointments?${new URLSearchParams({ from, to }).toString()}`);

/** Only the visible range is fetched (a month grid, or a month for the list). */
export const appointmentsQueryOptions = (range: AppointmentRange) =>
  queryOptions({
    queryKey: [...appointmentsQueryKey, 'list', range.from, range.to],
    queryFn: () => getAppointments(range),
  });

export const useAppointments = (range: AppointmentRange) => useQuery(appointmentsQueryOptions(range));
