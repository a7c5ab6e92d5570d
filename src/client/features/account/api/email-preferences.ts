import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailPreferences, UpdateEmailPreferences } from '#shared/schemas/email';
import { apiRequest } from '#client/lib/api-client.ts';

export const preferencesQueryKey = ['account', 'preferences'] as const;

export const getEmailPreferences = () => apiRequest<EmailPreferences>('GET', '/api/account/preferences');

export const preferencesQueryOptions = () => queryOptions({ queryKey: preferencesQueryKey, queryFn: getEmailPreferences });

export const useEmailPreferences = (enabled: boolean) => useQuery({ ...preferencesQueryOptions(), enabled });

/** Saves a change; the cache takes what the server saved. */
export function useUpdateEmailPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: UpdateEmailPreferences) => apiRequest<EmailPreferences>('PATCH', '/api/account/preferences', patch),
    onSuccess: (saved) => client.setQueryData(preferencesQueryKey, saved),
  });
}
