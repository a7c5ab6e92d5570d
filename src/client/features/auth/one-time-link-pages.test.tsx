// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '#client/components/ui/toast-store.ts';
import { AuthProvider } from '#client/lib/auth.tsx';
import { mockApi } from '#client/test/render-with-providers.tsx';
import { InvitePage } from './invite-page.tsx';
import { SETUP_LINK_NOT_VALID, SetupPage } from './setup-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TOKEN = 'T'.repeat(43);
const OWNER = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'first@example.com',
  display_name: 'Fran First',
  phone: null,
  role: 'owner',
};

function renderAt(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AuthProvider>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/setup/:token" element={<SetupPage />} />
            <Route path="/invite/:token" element={<InvitePage />} />
            <Route path="/dashboard" element={<p>Dashboard</p>} />
          </Routes>
        </MemoryRouter>
      </AuthProvider>
    </QueryClientProvider>,
  );
}

describe('the first-run set-up page', () => {
  it('creates the first owner, with a name and a confirmed password, and opens the dashboard', async () => {
    const { calls } = mockApi((call) => {
      if (call.path === '/api/auth/session') return { body: { user: null, setup_needed: true } };
      if (call.path === `/api/auth/setup/${TOKEN}`) return { body: { ok: true } };
      if (call.method === 'POST' && call.path === '/api/auth/setup') return { status: 201, body: { user: OWNER } };
      return undefined;
    });
    renderAt(`/setup/${TOKEN}`);
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('Email'), 'First@Example.com');
    await user.type(screen.getByLabelText('Password'), 'first-password');
    await user.type(screen.getByLabelText('Confirm password'), 'first-passwort');
    await user.click(screen.getByRole('button', { name: 'Create owner account' }));
    // A name is asked for first, with the rules of the account page.
    expect(screen.getByLabelText('Your name')).toHaveAccessibleDescription('Name is required');
    expect(screen.getByLabelText('Your name')).toHaveFocus();
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription('Passwords do not match');
    await user.type(screen.getByLabelText('Your name'), 'x'.repeat(81));
    expect(screen.getByLabelText('Your name')).toHaveAccessibleDescription('Name must be at most 80 characters');
    await user.clear(screen.getByLabelText('Your name'));
    await user.type(screen.getByLabelText('Your name'), '  Fran First ');
    await user.click(screen.getByRole('button', { name: 'Create owner account' }));
    expect(screen.getByLabelText('Confirm password')).toHaveFocus();
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'first-password');
    await user.click(screen.getByRole('button', { name: 'Create owner account' }));
    expect(await screen.findByText('Dashboard')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      token: TOKEN,
      display_name: 'Fran First',
      email: 'first@example.com',
      password: 'first-password',
      confirm: 'first-password',
    });
  });

  it('says plainly when the link does not work', async () => {
    mockApi((call) => {
      if (call.path === '/api/auth/session') return { body: { user: OWNER } };
      if (call.path.startsWith('/api/auth/setup/')) return { status: 404, body: { error: { code: 'not_found', message: 'x' } } };
      return undefined;
    });
    renderAt(`/setup/${TOKEN}`);
    // Signed in already: the dashboard, not the form.
    expect(await screen.findByText('Dashboard')).toBeInTheDocument();
    cleanup();
    mockApi((call) => {
      if (call.path === '/api/auth/session') return { body: { user: null, setup_needed: false } };
      if (call.path.startsWith('/api/auth/setup/')) return { status: 404, body: { error: { code: 'not_found', message: 'x' } } };
      return undefined;
    });
    renderAt(`/setup/${TOKEN}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(SETUP_LINK_NOT_VALID);
  });
});

describe('the invitation page', () => {
  it('shows the email and role, and accepting signs in', async () => {
    const { calls } = mockApi((call) => {
      if (call.path === '/api/auth/session') return { body: { user: null, setup_needed: false } };
      if (call.path === `/api/auth/invites/${TOKEN}`)
        return { body: { email: 'sam@example.com', role: 'staff', expires_at: '2099-01-01T00:00:00.000Z' } };
      if (call.method === 'POST' && call.path === '/api/auth/invites/accept')
        return { status: 201, body: { user: { ...OWNER, email: 'sam@example.com', role: 'staff' } } };
      return undefined;
    });
    renderAt(`/invite/${TOKEN}`);
    expect(
      await screen.findByText('You are invited as Staff. Give your name and choose a password to create your account.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('sam@example.com');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Your name'), 'Sam Staff');
    await user.type(screen.getByLabelText('Password'), 'sam-password');
    await user.type(screen.getByLabelText('Confirm password'), 'sam-password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(screen.getByText('Dashboard')).toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      token: TOKEN,
      display_name: 'Sam Staff',
      password: 'sam-password',
      confirm: 'sam-password',
    });
  });

  it('says a used or expired link is not valid', async () => {
    mockApi((call) => {
      if (call.path === '/api/auth/session') return { body: { user: null } };
      if (call.path.startsWith('/api/auth/invites/')) return { status: 404, body: { error: { code: 'not_found', message: 'gone' } } };
      return undefined;
    });
    renderAt(`/invite/${TOKEN}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation link is not valid any more');
  });
});
