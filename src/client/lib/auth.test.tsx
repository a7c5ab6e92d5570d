// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider, useAuth } from './auth.tsx';

function WhoAmI() {
  const { user, loading } = useAuth();
  return <p>{loading ? 'loading' : (user?.email ?? 'signed out')}</p>;
}

const withQueries = (children: ReactNode) => <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;

const respond = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => vi.unstubAllGlobals());

describe('useAuth', () => {
  it('throws a clear error outside its provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<WhoAmI />)).toThrowError('useAuth must be used within an AuthProvider');
  });

  it('is loading until the first session check completes, then has the user', async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    render(
      withQueries(
        <AuthProvider>
          <WhoAmI />
        </AuthProvider>,
      ),
    );
    expect(screen.getByText('loading')).toBeDefined();
    answer(await respond(200, { user: { id: '00000000-0000-4000-8000-000000000000', email: 'a@example.com' } }));
    await waitFor(() => expect(screen.getByText('a@example.com')).toBeDefined());
  });

  it('treats a failed first session check as signed out', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('network down'))),
    );
    render(
      withQueries(
        <AuthProvider>
          <WhoAmI />
        </AuthProvider>,
      ),
    );
    await waitFor(() => expect(screen.getByText('signed out')).toBeDefined());
  });
});
