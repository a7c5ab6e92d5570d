import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailOverview } from '#shared/schemas/email';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const getEmailOverview = () => apiRequest<EmailOverview>('GET', '/api/email');

/** Whether email is on and the newest messages; refreshed every few seconds while shown, so a queued message is seen leaving. */
export const emailQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.settings.email, queryFn: getEmailOverview, refetchInterval: 5000 });

export const useEmailOverview = () => useQuery(emailQueryOptions());

export function useSendTestEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ id: string }>('POST', '/api/email/test'),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.settings.email }),
  });
}

/** Last week's report to the signed-in admin, now. */
export function useSendWeeklyReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ id: string }>('POST', '/api/email/weekly-report'),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.settings.email }),
  });
}

export function useRetryEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<{ id: string }>('POST', apiPath`/api/email/${id}/retry`),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.settings.email }),
  });
}
