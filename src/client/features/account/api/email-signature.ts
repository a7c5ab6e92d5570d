import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Signature } from '#shared/schemas/account';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** The signature under the messages you write to leads ('' = none). */
export const useSignature = () =>
  useQuery({ queryKey: queryKeys.account.signature, queryFn: () => apiRequest<Signature>('GET', '/api/account/signature') });

export function useSaveSignature() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Signature) => apiRequest<Signature>('PUT', '/api/account/signature', body),
    onSuccess: (saved) => client.setQueryData(queryKeys.account.signature, saved),
  });
}
