import { useMutation, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '#shared/schemas/auth';
import type { InviteLookup } from '#shared/schemas/team';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

// The pages behind a one-time link: each checks its token once (no retry: a 404 is the answer),
// then spends it. They share a file as the account's three ways in.

/** Whether the first-run link printed at start-up is still good. */
export const useSetupLink = (token: string) =>
  useQuery({ queryKey: queryKeys.links.setup(token), queryFn: () => apiRequest('GET', apiPath`/api/auth/setup/${token}`), retry: false });

/** Creates the first owner, signed in. */
export const useSetUp = () =>
  useMutation({
    mutationFn: (body: { token: string; display_name: string; email: string; password: string; confirm: string }) =>
      apiRequest<{ user: CurrentUser }>('POST', '/api/auth/setup', body),
  });

/** The invitation behind a link: its email and role. */
export const useInviteLookup = (token: string) =>
  useQuery({
    queryKey: queryKeys.links.invite(token),
    queryFn: () => apiRequest<InviteLookup>('GET', apiPath`/api/auth/invites/${token}`),
    retry: false,
  });

/** Accepts an invitation: the account is created, signed in. */
export const useAcceptInvite = () =>
  useMutation({
    mutationFn: (body: { token: string; display_name: string; password: string; confirm: string }) =>
      apiRequest<{ user: CurrentUser }>('POST', '/api/auth/invites/accept', body),
  });

/** Asks for a reset link by email; the answer's message never says whether the email has an account. */
export const useRequestPasswordReset = () =>
  useMutation({ mutationFn: (email: string) => apiRequest<{ message: string }>('POST', '/api/auth/password-reset', { email }) });

/** The account a reset link is for. */
export const usePasswordResetLink = (token: string) =>
  useQuery({
    queryKey: queryKeys.links.passwordReset(token),
    queryFn: () => apiRequest<{ email: string }>('GET', apiPath`/api/auth/password-reset/${token}`),
    retry: false,
  });

/** Sets the new password (which signs the account out everywhere). */
export const useConfirmPasswordReset = () =>
  useMutation({
    mutationFn: (body: { token: string; password: string; confirm: string }) =>
      apiRequest<{ email: string; active_api_keys: number }>('POST', '/api/auth/password-reset/confirm', body),
  });
