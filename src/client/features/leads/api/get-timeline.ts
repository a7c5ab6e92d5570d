import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { TimelineResponse } from '#shared/schemas/lead-workspace';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Entries per page: a lead's whole story usually fits in one. */
export const TIMELINE_PAGE_SIZE = 50;

export const getTimeline = (id: string, before?: string) => {
  const params = new URLSearchParams({ limit: String(TIMELINE_PAGE_SIZE) });
  if (before) params.set('before', before);
  return apiRequest<TimelineResponse>('GET', `${apiPath`/api/leads/${id}/timeline`}?${params.toString()}`);
};

/**
 * The lead's timeline, newest first, a page at a time ("Show older" asks for the entries
 * before the last one shown). Under `queryKeys.leads.all`, so any change to leads refetches it.
 */
export const timelineQueryOptions = (id: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.leads.timeline(id),
    queryFn: ({ pageParam }) => getTimeline(id, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.entries.at(-1)?.at : undefined),
  });

export const useTimeline = (id: string) => useInfiniteQuery(timelineQueryOptions(id));
