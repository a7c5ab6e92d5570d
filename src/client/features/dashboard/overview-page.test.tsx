// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Overview } from '#shared/schemas/overview';
import { getToasts, toast } from '#client/components/ui/toast-store.ts';
import { makeLead } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { OverviewPage } from './overview-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const overview: Overview = {
  total_leads: 1234,
  total_appointments: 56,
  new_leads: 7,
  upcoming_appointments: 3,
  median_seconds_to_contacted: 2 * 3600 + 15 * 60 + 20,
  no_shows_30_days: 3,
  expected_fees_cents: 4_830_000,
  follow_ups: [],
  replies_to_read: [],
  recent_leads: [
    makeLead({ full_name: 'Ada Lovelace', email: 'ada@example.com', status: 'Converted', property_types: ['single-family'] }),
    makeLead({ full_name: 'Bad Date', created_at: 'garbage' }),
  ],
  upcoming: [
    {
      id: '10000000-0000-4000-8000-000000000001',
      lead_id: '10000000-0000-4000-8000-000000000002',
      date: '2025-03-04',
      time: '14:30',
      type: 'Zoom',
      notes: 'Review the rent roll',
      lead: { full_name: 'Grace Hopper', email: 'grace@example.com', phone: '555' },
      duration_minutes: 30,
      location: null,
      status: 'scheduled' as const,
      cancelled_by: null,
      source: 'staff' as const,
      booked_as: null,
      host_id: null,
      host_name: null,
    },
    {
      id: '10000000-0000-4000-8000-000000000003',
      lead_id: null,
      date: 'soon',
      time: '09:00',
      type: 'Call',
      notes: null,
      lead: null,
      duration_minutes: 30,
      location: null,
      status: 'scheduled' as const,
      cancelled_by: null,
      source: 'staff' as const,
      booked_as: null,
      host_id: null,
      host_name: null,
    },
  ],
};

describe('OverviewPage', () => {
  it('shows the heading with the date, the four cards with their links, speed to lead and both lists', async () => {
    mockApi(({ path }) => (path === '/api/overview' ? { body: overview } : undefined));
    renderWithProviders(<OverviewPage />, { url: '/dashboard' });
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeInTheDocument();

    expect(await screen.findByRole('link', { name: /Total Leads\s*1,234/ })).toHaveAttribute('href', '/dashboard/leads');
    expect(screen.getByRole('link', { name: /Total Appointments\s*56/ })).toHaveAttribute('href', '/dashboard/appointments');
    expect(screen.getByRole('link', { name: /Upcoming Appointments\s*3/ })).toHaveAttribute('href', '/dashboard/appointments');
    expect(screen.getByText('New Leads').parentElement).toHaveTextContent('New Leads7');
    expect(screen.getByTestId('median-time-to-contact')).toHaveTextContent('2h 15m');
    expect(screen.getByTestId('no-shows')).toHaveTextContent('3');

    const recent = screen.getByRole('region', { name: 'Recent Leads' });
    const [ada, bad] = within(recent).getAllByRole('listitem');
    expect(ada).toHaveTextContent('Ada Lovelace');
    expect(ada).toHaveTextContent('ada@example.com');
    expect(ada).toHaveTextContent('Single family');
    expect(ada).toHaveTextContent('Jan 5, 2025');
    expect(within(ada!).getByText('Converted')).toHaveClass('bg-green-100');
    expect(bad).toHaveTextContent('N/A');

    const upcoming = screen.getByRole('region', { name: 'Upcoming Appointments' });
    const [grace, unknown] = within(upcoming).getAllByRole('listitem');
    expect(grace).toHaveTextContent('Grace Hopper');
    expect(grace).toHaveTextContent('Zoom');
    expect(grace).toHaveTextContent('Mar 4, 2:30 PM');
    expect(grace).toHaveTextContent('Review the rent roll');
    expect(unknown).toHaveTextContent('Unknown Lead');
    expect(unknown).toHaveTextContent('Call');
    expect(unknown).toHaveTextContent('N/A');
  });

  it('shows the empty texts and a dash for speed to lead with no data', async () => {
    mockApi(() => ({ body: { ...overview, recent_leads: [], upcoming: [], median_seconds_to_contacted: null } }));
    renderWithProviders(<OverviewPage />, { url: '/dashboard' });
    expect(await screen.findByText('No leads yet')).toBeInTheDocument();
    expect(screen.getByText('No upcoming appointments')).toBeInTheDocument();
    expect(screen.getByTestId('median-time-to-contact')).toHaveTextContent('—');
  });

  it('only logs a failed load (no toast)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi(() => ({ status: 500, body: { error: { code: 'internal_error', message: 'Internal error' } } }));
    renderWithProviders(<OverviewPage />, { url: '/dashboard' });
    await waitFor(() => expect(log).toHaveBeenCalledWith('Loading the overview failed', expect.anything()));
    expect(getToasts()).toEqual([]);
    expect(screen.getByText('No leads yet')).toBeInTheDocument();
  });
});
