import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyList, CreateApiKeyRequest, CreatedApiKey } from '#shared/schemas/api-keys';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const useApiKeys = () =>
  useQuery({ queryKey: queryKeys.settings.apiKeys, queryFn: () => apiRequest<ApiKeyList>('GET', '/api/api-keys') });

/** A change to the keys; the list is read again after it. */
function useApiKeyChange<V, R>(change: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: change, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.settings.apiKeys }) });
}

export const useCreateApiKey = () =>
  useApiKeyChange((body: CreateApiKeyRequest) => apiRequest<CreatedApiKey>('POST', '/api/api-keys', body));
export const useRevokeApiKey = () => useApiKeyChange((id: string) => apiRequest('DELETE', apiPath`/api/api-keys/${id}`));
