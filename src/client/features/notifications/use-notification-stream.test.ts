import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '#client/lib/query-keys.ts';
import { refreshOnReady } from './use-notification-stream.ts';

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
