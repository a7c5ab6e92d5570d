import { useInfiniteQuery } from '@tanstack/react-query';
import type { TimelineResponse } from '#shared/schemas/lead-workspace';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Messages per page of a conversation. */
const THREAD_PAGE_SIZE = 50;

/**
 * One conversation on the lead's timeline, newest message first, a page at a time (the next
 * page: the messages before the last one shown). Fetched once `enabled` (the thread is opened).
 */
export function useThread(leadId: string, threadId: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: queryKeys.leads.thread(leadId, threadId),
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(THREAD_PAGE_SIZE) });
      if (pageParam) params.set('before', pageParam);
      return apiRequest<TimelineResponse>('GET', `${apiPath`/api/leads/${leadId}/threads/${threadId}`}?${params.toString()}`);
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.entries.at(-1)?.id : undefined),
    enabled,
  });
}
