// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '#shared/schemas/notification';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { NotificationBell } from './notification-bell.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LEAD_ID = '00000000-0000-4000-8000-0000000000c1';
const notifications: Notification[] = [
  {
    id: '10000000-0000-4000-8000-000000000001',
    type: 'lead',
    message: 'New lead: Jane Doe (jane@example.com)',
    read: false,
    lead_id: LEAD_ID,
    created_at: '2026-11-23T15:05:00.000Z',
  },
  {
    id: '10000000-0000-4000-8000-000000000002',
    type: 'appointment',
    message: 'Reminder: Call at 3:00 PM',
    read: false,
    lead_id: null,
    created_at: '2026-11-23T14:00:00.000Z',
  },
];

describe('NotificationBell', () => {
  it('opens the lead page from a notification about a lead, marking it read and closing the list', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi(({ method, path }) => {
      if (path === '/api/notifications') return { body: { notifications, time_zone: 'America/New_York' } };
      if (method === 'POST' && path.endsWith('/read')) return { body: { ok: true } };
      return undefined;
    });
    renderWithProviders(<NotificationBell />, { url: '/dashboard' });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const link = await screen.findByRole('link', { name: /New lead: Jane Doe/ });
    expect(link).toHaveAttribute('href', `/dashboard/leads/${LEAD_ID}`);
    // One without a lead stays a button that only marks it read.
    expect(screen.getByRole('button', { name: /Reminder: Call/ })).toBeInTheDocument();

    await user.click(link);
    expect(screen.getByTestId('current-url')).toHaveTextContent(`/dashboard/leads/${LEAD_ID}`);
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === `/api/notifications/${notifications[0]!.id}/read`)).toBe(true),
    );
    expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
  });

  it("shows each time on the business time zone's clock, naming the zone", async () => {
    const user = userEvent.setup({ delay: null });
    // 15:05 and 14:00 UTC are 8:05 and 7:00 AM in Denver, whatever this machine's zone.
    mockApi(({ path }) => (path === '/api/notifications' ? { body: { notifications, time_zone: 'America/Denver' } } : undefined));
    renderWithProviders(<NotificationBell />, { url: '/dashboard' });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    const times = within(panel).getAllByText(/ M[SD]T$/);
    expect(times.map((t) => t.textContent)).toEqual(['Nov 23, 8:05 AM MST', 'Nov 23, 7:00 AM MST']);
    expect(times[0]).toHaveAttribute('datetime', '2026-11-23T15:05:00.000Z');
  });
});
