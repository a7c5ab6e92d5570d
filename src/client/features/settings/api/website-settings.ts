import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebsiteContent, WebsiteResponse } from '#shared/schemas/website';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const websiteQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.settings.website, queryFn: () => apiRequest<WebsiteResponse>('GET', '/api/website') });

export const useWebsite = () => useQuery(websiteQueryOptions());

/** Saves every word at once; the saved answer replaces the cached one. */
export function useSaveWebsite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (content: WebsiteContent) => apiRequest<WebsiteResponse>('PUT', '/api/website', content),
    onSuccess: (saved) => client.setQueryData(queryKeys.settings.website, saved),
  });
}
