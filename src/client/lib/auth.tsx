import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { CurrentUser, LoginRequest, SessionResponse, TwoFactorLogin } from '#shared/schemas/auth';
import { onUnauthorized } from './api-client.ts';
import { getSession, logIn, logInWithCode, logOut } from './api/session.ts';

/**
 * The admin's session in the browser: loading until the first check completes, then
 * signed in or out. Sign-in and sign-out in one tab reach the others through a
 * BroadcastChannel (an auth state change listener); any 401 from the API signs out.
 */
type AuthState = {
  user: CurrentUser | null;
  loading: boolean;
  /** The user, or 'two-factor' when the password was right and a code is asked for next (completeTwoFactor). */
  signIn: (credentials: LoginRequest) => Promise<CurrentUser | 'two-factor'>;
  completeTwoFactor: (body: TwoFactorLogin) => Promise<CurrentUser>;
  signOut: () => Promise<void>;
  /** Re-checks the session with the server. */
  refresh: () => Promise<void>;
  /** Nobody has an account yet: the first owner comes from the set-up link in the server's log. */
  setupNeeded: boolean;
  /** Signed in by another way than the password form (a set-up or invitation link): the server already set the cookie. */
  adopt: (user: CurrentUser) => void;
};

export const AuthContext = createContext<AuthState | undefined>(undefined);
const CHANNEL = 'crm-auth';
type AuthEvent = { type: 'signed-in' } | { type: 'signed-out' };

/** The session as the server sees it, or undefined when the server could not say. */
async function fetchSession(): Promise<SessionResponse | undefined> {
  try {
    return await getSession();
  } catch (err) {
    console.error('Session check failed', err);
    return undefined;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<CurrentUser | null>(null);
  const [loading, setLoading] = useState(true);
  const [setupNeeded, setSetupNeeded] = useState(false);
  const [channel] = useState(() => (typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(CHANNEL)));

  // A check that fails (the server restarting, the network down) keeps whoever was signed
  // in: only the server saying "nobody" (or a 401 anywhere) signs out.
  const refresh = useCallback(async () => {
    const session = await fetchSession();
    if (session !== undefined) {
      setUser(session.user);
      setSetupNeeded(session.setup_needed === true);
    }
    setLoading(false);
  }, []);

  useEffect(() => {
    let live = true;
    void fetchSession().then((session) => {
      if (!live) return;
      setUser(session?.user ?? null);
      setSetupNeeded(session?.setup_needed === true);
      setLoading(false);
    });
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => onUnauthorized(() => setUser(null)), []);

  // Signed out: forget every cached answer, so the next admin in this tab sees none of it.
  useEffect(() => {
    if (user === null) queryClient.clear();
  }, [user, queryClient]);

  useEffect(() => {
    if (!channel) return;
    const onMessage = (message: MessageEvent<AuthEvent>) => {
      if (message.data.type === 'signed-out') setUser(null);
      else void refresh();
    };
    channel.addEventListener('message', onMessage);
    return () => channel.removeEventListener('message', onMessage);
  }, [channel, refresh]);

  const signIn = useCallback(
    async (credentials: LoginRequest) => {
      const result = await logIn(credentials);
      if ('two_factor_required' in result) return 'two-factor' as const;
      // The session check says more than sign-in does (a team rule to set up two-factor).
      await refresh();
      channel?.postMessage({ type: 'signed-in' } satisfies AuthEvent);
      return result.user;
    },
    [channel, refresh],
  );

  const completeTwoFactor = useCallback(
    async (body: TwoFactorLogin) => {
      const result = await logInWithCode(body);
      await refresh();
      channel?.postMessage({ type: 'signed-in' } satisfies AuthEvent);
      return result.user;
    },
    [channel, refresh],
  );

  const signOut = useCallback(async () => {
    try {
      await logOut();
    } catch (err) {
      console.error('Sign-out failed', err); // spec: logout errors are logged
    }
    setUser(null);
    channel?.postMessage({ type: 'signed-out' } satisfies AuthEvent);
  }, [channel]);

  const adopt = useCallback(
    (next: CurrentUser) => {
      setUser(next);
      setSetupNeeded(false);
      void refresh(); // and what the session check adds (a team rule to set up two-factor)
      channel?.postMessage({ type: 'signed-in' } satisfies AuthEvent);
    },
    [channel, refresh],
  );

  const value = useMemo(
    () => ({ user, loading, signIn, completeTwoFactor, signOut, refresh, setupNeeded, adopt }),
    [user, loading, signIn, completeTwoFactor, signOut, refresh, setupNeeded, adopt],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The signed-in admin; null when signed out or outside an AuthProvider. */
export function useCurrentUser(): CurrentUser | null {
  return useContext(AuthContext)?.user ?? null;
}

export function useAuth(): AuthState {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
