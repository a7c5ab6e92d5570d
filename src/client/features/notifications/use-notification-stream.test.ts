import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '#shared/schemas/notification';
import { queryKeys } from '#client/lib/query-keys.ts';
import { addLiveNotification, type NotificationsData } from './api/notifications.ts';
import { refetchChanged, refreshOnReady } from './use-notification-stream.ts';

/**
 * A change made after a page's data was read but before its stream listened is never
 * announced: `ready` refetches what was read before it, and leaves what was read after.
 */
afterEach(() => {
  vi.useRealTimers();
});

describe('refreshOnReady', () => {
  it('refetches the live queries whose data is older than the stream, and the bell, and nothing else', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const fetched = { inbox: 0, lead: 0, notifications: 0, unrelated: 0 };
    // Each an active query (something on the page shows it), fetched once as it is watched.
    const watch = async (queryKey: readonly unknown[], name: keyof typeof fetched) => {
      const observer = new QueryObserver(client, { queryKey, queryFn: async () => ++fetched[name] });
      observer.subscribe(() => undefined);
      await vi.waitFor(() => expect(fetched[name]).toBe(1));
    };
    vi.setSystemTime(1_000_000);
    await watch(queryKeys.inbox('open'), 'inbox');
    await watch(queryKeys.notifications, 'notifications');
    await watch(['something-else'], 'unrelated');
    // The lead's page read its data after the stream listened.
    vi.setSystemTime(1_002_000);
    await watch(queryKeys.leads.detail('l1'), 'lead');

    refreshOnReady(client, 1_001_000);
    await vi.waitFor(() => expect(fetched).toEqual({ inbox: 2, notifications: 2, lead: 1, unrelated: 1 }));
  });
});

/**
 * A page's first fetch under way when a change arrives may have read before the change: its
 * answer must not be the last word (TanStack Query keeps such a fetch rather than start another).
 */
describe('a change while a page is loading for the first time', () => {
  /** An active query whose answers the test gives, one fetch at a time; `answer` settles the oldest open one. */
  function loading<T>(client: QueryClient, queryKey: readonly unknown[]) {
    const open: ((value: T) => void)[] = [];
    let fetches = 0;
    const observer = new QueryObserver(client, {
      queryKey,
      queryFn: () => {
        fetches++;
        return new Promise<T>((resolve) => open.push(resolve));
      },
    });
    observer.subscribe(() => undefined);
    return {
      fetches: () => fetches,
      answer: (value: T) => open.shift()!(value),
      data: () => client.getQueryData<T>(queryKey),
    };
  }
  const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });

  it('a change refetches the Inbox whose first answer was read before it', async () => {
    const client = newClient();
    const inbox = loading<string>(client, queryKeys.inbox('open'));
    await vi.waitFor(() => expect(inbox.fetches()).toBe(1));
    refetchChanged(client, 'leads');
    await vi.waitFor(() => expect(inbox.fetches()).toBe(2));
    // The first answer (one message, read before the change) comes back last of all, and is dropped.
    inbox.answer('one message');
    inbox.answer('three messages');
    await vi.waitFor(() => expect(inbox.data()).toBe('three messages'));
    expect(client.getQueryState(queryKeys.inbox('open'))?.isInvalidated).toBe(false);
  });

  it('`ready` does the same for a first fetch under way', async () => {
    const client = newClient();
    const lead = loading<string>(client, queryKeys.leads.detail('l1'));
    await vi.waitFor(() => expect(lead.fetches()).toBe(1));
    refreshOnReady(client);
    await vi.waitFor(() => expect(lead.fetches()).toBe(2));
    lead.answer('before');
    lead.answer('after');
    await vi.waitFor(() => expect(lead.data()).toBe('after'));
  });

  it('a change to a query that has data refetches it, and an unrelated one is left alone', async () => {
    const client = newClient();
    const inbox = loading<string>(client, queryKeys.inbox('open'));
    const other = loading<string>(client, ['something-else']);
    inbox.answer('first');
    other.answer('other');
    await vi.waitFor(() => expect(inbox.data()).toBe('first'));
    refetchChanged(client, 'leads');
    await vi.waitFor(() => expect(inbox.fetches()).toBe(2));
    inbox.answer('second');
    await vi.waitFor(() => expect(inbox.data()).toBe('second'));
    expect(other.fetches()).toBe(1);
  });

  it('a live notification during the bell’s first fetch is kept: the list is read again', async () => {
    const client = newClient();
    const bell = loading<NotificationsData>(client, queryKeys.notifications);
    await vi.waitFor(() => expect(bell.fetches()).toBe(1));
    const live: Notification = {
      id: '00000000-0000-4000-8000-000000000001',
      type: 'lead',
      message: 'New lead: Nia Newcomer',
      read: false,
      created_at: '2026-11-28T10:00:00.000Z',
    };
    addLiveNotification(client, live);
    await vi.waitFor(() => expect(bell.fetches()).toBe(2));
    bell.answer({ notifications: [] });
    bell.answer({ notifications: [live], time_zone: 'America/New_York' });
    await vi.waitFor(() => expect(bell.data()).toEqual({ notifications: [live], time_zone: 'America/New_York' }));
  });
});
