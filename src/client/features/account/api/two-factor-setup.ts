import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorSetup, TwoFactorStatus } from '#shared/schemas/two-factor';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const useTwoFactorStatus = () =>
  useQuery({ queryKey: queryKeys.account.twoFactor, queryFn: () => apiRequest<TwoFactorStatus>('GET', '/api/account/two-factor') });

function useTwoFactorChange<V, R>(change: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: change, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.account.twoFactor }) });
}

export const useStartTwoFactor = () => useTwoFactorChange(() => apiRequest<TwoFactorSetup>('POST', '/api/account/two-factor/setup'));
export const useConfirmTwoFactor = () =>
  useTwoFactorChange((code: string) => apiRequest<{ recovery_codes: string[] }>('POST', '/api/account/two-factor/confirm', { code }));
export const useDisableTwoFactor = () =>
  useTwoFactorChange((current_password: string) =>
    apiRequest<TwoFactorStatus>('POST', '/api/account/two-factor/disable', { current_password }),
  );
export const useNewRecoveryCodes = () =>
  useTwoFactorChange((current_password: string) =>
    apiRequest<{ recovery_codes: string[] }>('POST', '/api/account/two-factor/recovery-codes', { current_password }),
  );
