import type { CurrentUser, LoginRequest, LoginResponse, SessionResponse, TwoFactorLogin } from '#shared/schemas/auth';
import { apiRequest } from '#client/lib/api-client.ts';

/** The session's requests, which the auth provider (lib/auth.tsx) makes for the whole app. */
export const getSession = () => apiRequest<SessionResponse>('GET', '/api/auth/session');

export const logIn = (credentials: LoginRequest) => apiRequest<LoginResponse>('POST', '/api/auth/login', credentials);

export const logInWithCode = (body: TwoFactorLogin) => apiRequest<{ user: CurrentUser }>('POST', '/api/auth/login/two-factor', body);

export const logOut = () => apiRequest<undefined>('POST', '/api/auth/logout');
