import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { NOTIFICATION_TYPES, notificationTitle } from '#shared/constants';
import type { Notification } from '#shared/schemas/notification';
import { toast } from '#client/components/ui/toast-store.ts';
import { queryKeys } from '#client/lib/query-keys.ts';
import { addLiveNotification } from './api/notifications.ts';
import { refetchLive } from './refetch-live.ts';

const RETRY_AFTER_CLOSE_MS = 5000;
const { analytics } = queryKeys;
/** The appointments' and the Overview's queries, refreshed on a booking. */
const LIVE_BOOKING_QUERIES = [queryKeys.appointments.all, queryKeys.overview];
/** What to refetch when the server says a resource changed (anyone's edit, in any process). */
const LIVE_CHANGE_QUERIES: Record<string, readonly (readonly string[])[]> = {
  // A lead sent, converted, moved or lost, given a fee, a call booked or cancelled: the Analytics
  // page's funnel, sources, conversion rate, lost reasons and stage conversion count them.
  leads: [
    queryKeys.leads.all,
    queryKeys.overview,
    analytics.report.all,
    analytics.sources.all,
    analytics.summary.all,
    analytics.pipeline.all,
  ],
  appointments: [queryKeys.appointments.all, queryKeys.overview, queryKeys.leads.all, analytics.report.all, analytics.sources.all],
  // Visitors came or moved: the Analytics page's "Now".
  analytics: [analytics.now],
};

/**
 * What the stream says on `ready` (its first connect, and every reconnect): changes made before
 * it listened were never announced, so every live query whose data arrived before now is
 * refetched (the active ones; the rest are marked stale), and the bell's list.
 */
export function refreshOnReady(client: QueryClient, readyAt = Date.now()): void {
  void refetchLive(client, queryKeys.notifications);
  const keys = new Map(
    Object.values(LIVE_CHANGE_QUERIES)
      .flat()
      .map((key) => [JSON.stringify(key), key] as const),
  );
  for (const queryKey of keys.values()) void refetchLive(client, queryKey, (query) => query.state.dataUpdatedAt < readyAt);
}

/** What the stream's `change` event asks: the live queries showing `resource` refetch. */
export function refetchChanged(client: QueryClient, resource: unknown): void {
  for (const queryKey of LIVE_CHANGE_QUERIES[String(resource)] ?? []) void refetchLive(client, queryKey);
}

/** A notification as the stream sends it; anything else (say, a proxy's error text) is ignored. */
function readNotification(data: string): Notification | undefined {
  try {
    const n = JSON.parse(data) as Partial<Notification>;
    const valid =
      typeof n.id === 'string' &&
      typeof n.message === 'string' &&
      typeof n.read === 'boolean' &&
      typeof n.created_at === 'string' &&
      (NOTIFICATION_TYPES as readonly unknown[]).includes(n.type);
    return valid ? (n as Notification) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One EventSource per tab. On every (re)connect the server sends `ready` and we refetch
 * (refreshOnReady), so nothing created before the stream listened (the page's first data, a
 * server restart) is missed. Each new
 * notification goes into the bell and shows a toast titled New Lead / Appointment Reminder.
 * `onClosed` runs when the server refuses the stream (for example a 401), so the caller can
 * re-check the session.
 */
export function useNotificationStream(onClosed: () => void) {
  const client = useQueryClient();
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const open = () => {
      source = new EventSource('/api/notifications/stream');
      source.addEventListener('ready', () => refreshOnReady(client));
      source.addEventListener('notification', (event) => {
        const notification = readNotification((event as MessageEvent<string>).data);
        if (!notification) return;
        addLiveNotification(client, notification);
        toast.info(notificationTitle(notification.type), notification.message);
        // A visitor booked, moved or cancelled a call: the calendar, the list and the Overview show it now.
        if (notification.type === 'booking') {
          for (const queryKey of LIVE_BOOKING_QUERIES) void refetchLive(client, queryKey);
        }
      });
      // Another admin (or a visitor) changed leads or appointments: open lists and pages refetch.
      source.addEventListener('change', (event) => {
        let resource: unknown;
        try {
          resource = (JSON.parse((event as MessageEvent<string>).data) as { resource?: unknown }).resource;
        } catch {
          return;
        }
        refetchChanged(client, resource);
      });
      source.addEventListener('error', () => {
        // CONNECTING: the browser retries by itself. CLOSED: the server said no; try later.
        if (source?.readyState === EventSource.CLOSED && !stopped) {
          onClosed();
          retry = setTimeout(open, RETRY_AFTER_CLOSE_MS);
        }
      });
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [client, onClosed]);
}
