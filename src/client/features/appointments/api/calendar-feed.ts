import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeed } from '#shared/schemas/appointment';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

// The feed's three operations are tiny and always used together, so they share a file.

export const getCalendarFeed = () => apiRequest<CalendarFeed>('GET', '/api/calendar-feed');
export const createCalendarFeed = () => apiRequest<CalendarFeed>('POST', '/api/calendar-feed');
export const revokeCalendarFeed = () => apiRequest<CalendarFeed>('DELETE', '/api/calendar-feed');

export const calendarFeedQueryOptions = () => queryOptions({ queryKey: queryKeys.calendarFeed, queryFn: getCalendarFeed });

export const useCalendarFeed = (enabled: boolean) => useQuery({ ...calendarFeedQueryOptions(), enabled });

/** Creates a new feed URL, which replaces (and stops) any earlier one. */
export function useCreateCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createCalendarFeed,
    onSuccess: (feed) => client.setQueryData<CalendarFeed>(queryKeys.calendarFeed, { active: feed.active, created_at: feed.created_at }),
  });
}

export function useRevokeCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeCalendarFeed,
    onSuccess: (feed) => client.setQueryData<CalendarFeed>(queryKeys.calendarFeed, feed),
  });
}
