import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditPage } from '#shared/schemas/audit';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** The audit log under these filters (the API's query string), newest first, a page at a time. */
export const useAuditLog = (filters: URLSearchParams) =>
  useInfiniteQuery({
    queryKey: queryKeys.audit(filters.toString()),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const page = new URLSearchParams(filters);
      if (pageParam) page.set('cursor', pageParam);
      return apiRequest<AuditPage>('GET', `/api/audit?${page}`);
    },
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
