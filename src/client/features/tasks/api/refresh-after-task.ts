import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '#client/lib/query-keys.ts';

/**
 * A task's change is its lead's (the next step, the timeline, the lists' Next step column) and
 * the Overview's (My tasks): every task write refreshes the leads family and the Overview.
 */
export function useRefreshAfterTask() {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: queryKeys.leads.all }), client.invalidateQueries({ queryKey: queryKeys.overview })]);
}
