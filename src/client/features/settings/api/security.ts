import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SecuritySettings } from '#shared/schemas/two-factor';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const useSecuritySettings = () =>
  useQuery({ queryKey: queryKeys.settings.security, queryFn: () => apiRequest<SecuritySettings>('GET', '/api/settings/security') });

/** Saves whether everyone must use two-factor; the saved answer replaces the cached one. */
export function useSaveSecuritySettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SecuritySettings) => apiRequest<SecuritySettings>('PUT', '/api/settings/security', body),
    onSuccess: (saved) => client.setQueryData(queryKeys.settings.security, saved),
  });
}
