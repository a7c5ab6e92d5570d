// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToasts, toast } from '#client/components/ui/toast-store.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { AccountPage } from './account-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const OLIVE = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'olive@example.com',
  display_name: 'Olive Owner',
  phone: null,
  role: 'owner' as const,
};

function serve(profile: (body: unknown) => { status?: number; body: unknown }) {
  return mockApi((call) => {
    if (call.path === '/api/account/sessions') return { body: { sessions: [] } };
    if (call.path === '/api/account/preferences')
      return {
        body: {
          email_new_leads: true,
          email_appointments: false,
          email_weekly_report: false,
          email_replies: false,
          email_task_digest: false,
        },
      };
    if (call.path === '/api/account/two-factor') return { body: { enabled: false, recovery_codes_left: 0, required: false } };
    if (call.method === 'PUT' && call.path === '/api/account/profile') return profile(call.body);
    if (call.path === '/api/account/signature')
      return {
        body: call.method === 'PUT' ? { signature: (call.body as { signature: string }).signature.trim() } : { signature: 'Olive' },
      };
    return undefined;
  });
}

describe('AccountPage: name and phone', () => {
  it('shows who is signed in by name, checks the name and phone as the server does, and saves them (a blank phone is none)', async () => {
    const { calls } = serve((body) => ({ body }));
    renderWithProviders(<AccountPage />, { url: '/dashboard/account', user: OLIVE });
    expect(screen.getByText('Signed in as Olive Owner (olive@example.com), Owner.')).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Name and phone' });
    const name = within(card).getByLabelText('Name');
    const phone = within(card).getByLabelText('Phone (optional)');
    expect(name).toHaveValue('Olive Owner');
    expect(phone).toHaveValue('');

    const user = userEvent.setup({ delay: null });
    await user.clear(name);
    await user.type(phone, 'x'.repeat(41));
    await user.click(within(card).getByRole('button', { name: 'Save name and phone' }));
    expect(name).toHaveAccessibleDescription('Name is required');
    expect(phone).toHaveAccessibleDescription('Phone number must be at most 40 characters');
    expect(name).toHaveFocus();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);

    await user.type(name, '  Olive Ostrander ');
    await user.clear(phone);
    await user.type(phone, ' (301) 555-0142 ');
    await user.click(within(card).getByRole('button', { name: 'Save name and phone' }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('Your name and phone are saved.'));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { display_name: 'Olive Ostrander', phone: '(301) 555-0142' },
    ]);

    await user.clear(phone);
    await user.click(within(card).getByRole('button', { name: 'Save name and phone' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ display_name: 'Olive Ostrander', phone: null });
  });

  it('puts the server’s field messages under the fields', async () => {
    serve(() => ({
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'Invalid input',
          fields: { display_name: 'Contains a character that is not allowed' },
        },
      },
    }));
    renderWithProviders(<AccountPage />, { url: '/dashboard/account', user: OLIVE });
    const card = screen.getByRole('region', { name: 'Name and phone' });
    await userEvent.setup({ delay: null }).click(within(card).getByRole('button', { name: 'Save name and phone' }));
    await waitFor(() =>
      expect(within(card).getByLabelText('Name')).toHaveAccessibleDescription('Contains a character that is not allowed'),
    );
  });
});

describe('AccountPage: email signature', () => {
  it('shows the saved signature, refuses one too long with the server’s message, and saves the edit', async () => {
    const { calls } = serve((body) => ({ body }));
    renderWithProviders(<AccountPage />, { url: '/dashboard/account', user: OLIVE });
    const card = screen.getByRole('region', { name: 'Email signature' });
    const field = await within(card).findByLabelText('Signature');
    expect(field).toHaveValue('Olive');
    const user = userEvent.setup({ delay: null });
    await user.clear(field);
    await user.click(field);
    await user.paste('x'.repeat(1001));
    await user.click(within(card).getByRole('button', { name: 'Save signature' }));
    expect(field).toHaveAccessibleDescription('Signature must be at most 1,000 characters');
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);

    await user.clear(field);
    await user.type(field, 'Olive Owner{enter}Keystone');
    await user.click(within(card).getByRole('button', { name: 'Save signature' }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('Signature saved'));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ signature: 'Olive Owner\nKeystone' }]);
  });
});

describe('AccountPage: the API keys a password change leaves working', () => {
  it('lists them after the change, and Revoke all of them revokes them at once', async () => {
    const keys = [
      { id: '22222222-2222-4222-8222-222222222222', name: 'Partner form', prefix: 'crm_abcd1234' },
      { id: '33333333-3333-4333-8333-333333333333', name: 'Zap', prefix: 'crm_zzzz9999' },
    ];
    const { calls } = mockApi((call) => {
      if (call.path === '/api/account/password') return { body: { email: OLIVE.email, other_sessions_ended: 0, api_keys: keys } };
      if (call.path === '/api/api-keys/revoke-mine') return { body: { revoked: 2 } };
      if (call.path === '/api/account/sessions') return { body: { sessions: [] } };
      return undefined;
    });
    renderWithProviders(<AccountPage />, { url: '/dashboard/account', user: OLIVE });
    const user = userEvent.setup({ delay: null });
    const card = screen.getByRole('region', { name: 'Password' });
    await user.type(within(card).getByLabelText('Current password'), 'olive-password');
    await user.type(within(card).getByLabelText('New password'), 'olive-new-password');
    await user.type(within(card).getByLabelText('Confirm new password'), 'olive-new-password');
    await user.click(within(card).getByRole('button', { name: 'Change password' }));
    const note = await within(card).findByRole('note', { name: 'Your 2 API keys still work' });
    expect(note).toHaveTextContent('Partner form (crm_abcd1234…)');
    expect(note).toHaveTextContent('Zap (crm_zzzz9999…)');
    await user.click(within(note).getByRole('button', { name: 'Revoke all of them' }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('Your 2 API keys are revoked.'));
    expect(calls.filter((c) => c.path === '/api/api-keys/revoke-mine')).toHaveLength(1);
    expect(within(card).queryByRole('note')).toBeNull();
  });

  it('says nothing when there are none, and Keep them puts the notice away', async () => {
    let keys = [{ id: '22222222-2222-4222-8222-222222222222', name: 'Partner form', prefix: 'crm_abcd1234' }];
    const { calls } = mockApi((call) => {
      if (call.path === '/api/account/password') return { body: { email: OLIVE.email, other_sessions_ended: 0, api_keys: keys } };
      if (call.path === '/api/account/sessions') return { body: { sessions: [] } };
      return undefined;
    });
    renderWithProviders(<AccountPage />, { url: '/dashboard/account', user: OLIVE });
    const user = userEvent.setup({ delay: null });
    const card = screen.getByRole('region', { name: 'Password' });
    const change = async () => {
      await user.type(within(card).getByLabelText('Current password'), 'olive-password');
      await user.type(within(card).getByLabelText('New password'), 'olive-new-password');
      await user.type(within(card).getByLabelText('Confirm new password'), 'olive-new-password');
      await user.click(within(card).getByRole('button', { name: 'Change password' }));
    };
    await change();
    const note = await within(card).findByRole('note', { name: 'Your API key still works' });
    await user.click(within(note).getByRole('button', { name: 'Keep them' }));
    expect(within(card).queryByRole('note')).toBeNull();
    keys = [];
    await change();
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/account/password')).toHaveLength(2));
    expect(within(card).queryByRole('note')).toBeNull();
    expect(calls.some((c) => c.path === '/api/api-keys/revoke-mine')).toBe(false);
  });
});
