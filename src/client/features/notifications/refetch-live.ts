import type { Query, QueryClient, QueryKey, QueryState } from '@tanstack/react-query';

/** A query's first fetch is under way: it has no data yet, and its answer may predate a change announced now. */
export const firstFetchUnderWay = (state: QueryState | undefined) => state?.data === undefined && state?.fetchStatus === 'fetching';

/**
 * Refetches the queries under `queryKey` (those `predicate` picks) because the server said
 * their data changed.
 *
 * A plain invalidation is not enough for a query whose first fetch is still under way: TanStack
 * Query answers such a fetch's promise instead of starting another, and that fetch's answer, read
 * before the change, then clears the invalidated mark. A page opened just before a change would
 * show the old data until the next one (mail arriving while the Inbox loads showed one message of
 * three). So a first fetch under way is cancelled and started again; a query that has data has
 * its refetch restarted by the invalidation itself.
 */
export async function refetchLive(client: QueryClient, queryKey: QueryKey, predicate: (query: Query) => boolean = () => true) {
  const firstLoad = (query: Query) => predicate(query) && firstFetchUnderWay(query.state);
  if (client.getQueryCache().findAll({ queryKey, predicate: firstLoad }).length > 0)
    await client.cancelQueries({ queryKey, predicate: firstLoad });
  await client.invalidateQueries({ queryKey, predicate });
}
