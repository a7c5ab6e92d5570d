import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSession, ChangeEmail, ChangePassword, PasswordChange, Profile, ProfileRequest } from '#shared/schemas/account';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const useSessions = () =>
  useQuery({
    queryKey: queryKeys.account.sessions,
    queryFn: () => apiRequest<{ sessions: AccountSession[] }>('GET', '/api/account/sessions'),
  });

type Changed = { email: string; other_sessions_ended: number };

function useAccountChange<V, R>(change: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: change, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.account.sessions }) });
}

export const useChangeProfile = () =>
  useMutation({ mutationFn: (body: ProfileRequest) => apiRequest<Profile>('PUT', '/api/account/profile', body) });
export const useChangeEmail = () => useAccountChange((body: ChangeEmail) => apiRequest<Changed>('POST', '/api/account/email', body));
export const useChangePassword = () =>
  useAccountChange((body: ChangePassword) => apiRequest<PasswordChange>('POST', '/api/account/password', body));
/** Revokes every API key the signed-in owner made (offered after a password change, which does not end them). */
export const useRevokeMyApiKeys = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ revoked: number }>('POST', '/api/api-keys/revoke-mine'),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.settings.apiKeys }),
  });
};
export const useEndSession = () => useAccountChange((id: string) => apiRequest('DELETE', apiPath`/api/account/sessions/${id}`));
export const useEndOtherSessions = () => useAccountChange(() => apiRequest<{ ended: number }>('POST', '/api/account/sessions/end-others'));
