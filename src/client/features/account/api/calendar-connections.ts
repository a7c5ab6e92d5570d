import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarChoice, CalendarConnection, CalendarConnectionCreate, CalendarConnectionList } from '#shared/schemas/calendars';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Your connected calendars (GET /api/account/calendars). */
export const useCalendars = () =>
  useQuery({
    queryKey: queryKeys.account.calendars,
    queryFn: () => apiRequest<CalendarConnectionList>('GET', '/api/account/calendars'),
  });

/** After any change: the list again, and the calendar's grey blocks and the website's times follow. */
function useRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: queryKeys.account.calendars });
    void client.invalidateQueries({ queryKey: queryKeys.appointments.all });
  };
}

export function useConnectCalendar() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CalendarConnectionCreate) => apiRequest<CalendarConnection>('POST', '/api/account/calendars', body),
    onSuccess: refresh,
  });
}

export function useSyncCalendar() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => apiRequest<CalendarConnection>('POST', `/api/account/calendars/${encodeURIComponent(id)}/sync`),
    onSettled: refresh,
  });
}

export function useRemoveCalendar() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', `/api/account/calendars/${encodeURIComponent(id)}`),
    onSuccess: refresh,
  });
}

/** A CalDAV account's busy calendars and the one booked calls go to. */
export function useChooseCalendars() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, ...choice }: CalendarChoice & { id: string }) =>
      apiRequest<CalendarConnection>('PATCH', `/api/account/calendars/${encodeURIComponent(id)}`, choice),
    onSuccess: refresh,
  });
}
