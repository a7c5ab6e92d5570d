import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailPreferences, UpdateEmailPreferences } from '#shared/schemas/email';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const getEmailPreferences = () => apiRequest<EmailPreferences>('GET', '/api/account/preferences');

export const preferencesQueryOptions = () => queryOptions({ queryKey: queryKeys.account.preferences, queryFn: getEmailPreferences });

export const useEmailPreferences = (enabled: boolean) => useQuery({ ...preferencesQueryOptions(), enabled });

/** Saves a change; the cache takes what the server saved. */
export function useUpdateEmailPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: UpdateEmailPreferences) => apiRequest<EmailPreferences>('PATCH', '/api/account/preferences', patch),
    onSuccess: (saved) => client.setQueryData(queryKeys.account.preferences, saved),
  });
}
