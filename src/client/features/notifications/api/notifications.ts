import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Notification, NotificationList } from '#shared/schemas/notification';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';
import { firstFetchUnderWay } from '../refetch-live.ts';

/** The list and the business time zone its times are shown in. */
export type NotificationsData = { notifications: Notification[]; time_zone?: string };

export const getNotifications = (): Promise<NotificationsData> => apiRequest<NotificationList>('GET', '/api/notifications');

export const notificationsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.notifications, queryFn: getNotifications, staleTime: 60_000 });

/** The bell's list. Fetch errors stay in the query state, not shown (docs/product-rules.md, "Silent errors"). */
export const useNotifications = () => useQuery(notificationsQueryOptions());

// Before the list has loaded a live notification makes a list of its own (no zone yet: its
// time is shown in the viewer's zone, named); the fetch under way is started again and replaces it.
const setList = (client: QueryClient, update: (list: Notification[]) => Notification[]) =>
  client.setQueryData<NotificationsData>(queryKeys.notifications, (data) => ({
    ...data,
    notifications: update(data?.notifications ?? []),
  }));

/** Adds a notification that arrived live, unless the list already has it. */
export function addLiveNotification(client: QueryClient, notification: Notification) {
  const firstLoad = firstFetchUnderWay(client.getQueryState(queryKeys.notifications));
  setList(client, (list) => (list.some((n) => n.id === notification.id) ? list : [notification, ...list]));
  // The list's first fetch is under way and may have read before this notification was made: its
  // answer would replace the list without it. With data now in place, invalidating restarts it.
  if (firstLoad) void client.invalidateQueries({ queryKey: queryKeys.notifications });
}

export function useMarkNotificationRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('POST', apiPath`/api/notifications/${id}/read`),
    onMutate: (id) => setList(client, (list) => list.map((n) => (n.id === id ? { ...n, read: true } : n))),
    onError: () => client.invalidateQueries({ queryKey: queryKeys.notifications }),
  });
}

export function useMarkAllNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/notifications/read-all'),
    onMutate: () => setList(client, (list) => list.map((n) => ({ ...n, read: true }))),
    onError: () => client.invalidateQueries({ queryKey: queryKeys.notifications }),
  });
}

export function useClearNotifications() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', '/api/notifications'),
    onSuccess: () => setList(client, () => []),
  });
}
