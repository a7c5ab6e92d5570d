// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToasts, toast } from '#client/components/ui/toast-store.ts';
import { FIXTURE_OWNER } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { SecuritySettingsPage } from './security-settings-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const OWNER = FIXTURE_OWNER;

describe('SecuritySettingsPage', () => {
  it('the switch follows the click at once, saves, and goes back when the server refuses', async () => {
    let refuse = false;
    const { calls } = mockApi((call) => {
      if (call.path !== '/api/settings/security') return undefined;
      if (call.method === 'GET') return { body: { require_two_factor: false } };
      if (refuse)
        return {
          status: 409,
          body: { error: { code: 'conflict', message: 'Turn on two-factor for your own account first, so you are not locked out.' } },
        };
      return { body: call.body };
    });
    renderWithProviders(<SecuritySettingsPage />, { url: '/dashboard/settings/security', user: OWNER });
    const toggle = await screen.findByRole('switch', { name: /Require two-factor authentication for everyone/ });
    expect(toggle).not.toBeChecked();
    const user = userEvent.setup({ delay: null });
    await user.click(toggle);
    expect(toggle).toBeChecked();
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('Two-factor is now required for everyone.'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ require_two_factor: true });
    expect(toggle).toBeChecked();

    refuse = true;
    await user.click(toggle);
    await waitFor(() =>
      expect(getToasts().map((t) => t.message)).toContain('Turn on two-factor for your own account first, so you are not locked out.'),
    );
    expect(toggle).toBeChecked();
  });
});
