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
