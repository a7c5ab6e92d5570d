import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { CurrentUser } from '#shared/schemas/auth';
import { Toaster } from '#client/components/ui/toaster.tsx';
import { AuthContext } from '#client/lib/auth.tsx';

/** Shows the router's current URL, so a test can read what the page wrote to it. */
function CurrentUrl() {
  const location = useLocation();
  return <div data-testid="current-url">{`${location.pathname}${location.search}`}</div>;
}

/** A signed-in admin for a test: what it gives, and a name from its email and no phone unless it says. */
export type TestUser = Omit<CurrentUser, 'display_name' | 'phone'> & Partial<Pick<CurrentUser, 'display_name' | 'phone'>>;

/** Renders a page with a fresh query cache, a router at `url` and the toasts (and, given `user`, that admin signed in). */
export function renderWithProviders(ui: ReactElement, { url = '/', user: given }: { url?: string; user?: TestUser } = {}) {
  const user: CurrentUser | undefined = given && { display_name: given.email.split('@')[0]!, phone: null, ...given };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const page = (
    <MemoryRouter initialEntries={[url]}>
      {ui}
      <CurrentUrl />
    </MemoryRouter>
  );
  const signedIn = async () => {};
  return render(
    <QueryClientProvider client={client}>
      {user ? (
        <AuthContext.Provider
          value={{
            user,
            loading: false,
            signIn: async () => user,
            completeTwoFactor: async () => user,
            signOut: signedIn,
            refresh: signedIn,
            setupNeeded: false,
            adopt: () => {},
          }}
        >
          {page}
        </AuthContext.Provider>
      ) : (
        page
      )}
      <Toaster />
    </QueryClientProvider>,
  );
}

export type ApiCall = { method: string; path: string; body: unknown };
type Handler = (call: ApiCall) => { status?: number; body: unknown } | undefined;

/**
 * Stubs `fetch` with a handler that answers by method and path; records every call.
 * An unhandled request answers 500, so a missing handler fails loudly.
 */
export function mockApi(handler: Handler) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? `${input.pathname}${input.search}` : input.url;
    const call = { method: init?.method ?? 'GET', path, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const answer = handler(call) ?? {
      status: 500,
      body: { error: { code: 'internal_error', message: `Unhandled ${call.method} ${path}` } },
    };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
