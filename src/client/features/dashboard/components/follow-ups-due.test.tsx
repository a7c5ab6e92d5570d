// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeLead } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { OverviewPage } from '../overview-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const overview = {
  total_leads: 2,
  total_appointments: 0,
  new_leads: 1,
  upcoming_appointments: 0,
  median_seconds_to_contacted: null,
  upcoming: [],
  recent_leads: [makeLead({ id: '00000000-0000-4000-8000-0000000000a1', full_name: 'Ada Lovelace' })],
  follow_ups: [
    {
      lead_id: '00000000-0000-4000-8000-0000000000b1',
      full_name: 'Grace Hopper',
      follow_up_on: '2020-11-20',
      follow_up_note: 'send the zoning report',
      owner_email: 'ann@firm.test',
      owner_name: 'Ann Fields',
      overdue: true,
    },
    {
      lead_id: '00000000-0000-4000-8000-0000000000b2',
      full_name: 'Alan Turing',
      follow_up_on: '2020-11-23',
      follow_up_note: null,
      owner_email: null,
      owner_name: null,
      overdue: false,
    },
  ],
};

describe('Overview links to the lead page', () => {
  it('lists the follow-ups due (overdue marked), each name a link to its lead, and recent leads link too', async () => {
    mockApi(({ path }) => (path === '/api/overview' ? { body: overview } : undefined));
    renderWithProviders(<OverviewPage />, { url: '/dashboard' });
    const due = await screen.findByRole('region', { name: 'Follow-ups due' });
    const [grace, alan] = within(due).getAllByRole('listitem');
    expect(within(grace!).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/dashboard/leads/00000000-0000-4000-8000-0000000000b1',
    );
    expect(grace).toHaveTextContent('Follow up on Nov 20, 2020: send the zoning report');
    expect(grace).toHaveTextContent('Owner: Ann Fields');
    expect(within(grace!).getByText('Overdue')).toHaveClass('bg-red-100');
    expect(alan).toHaveTextContent('Follow up on Nov 23, 2020');
    expect(alan).toHaveTextContent('No owner');
    expect(within(alan!).getByText('Today')).toBeInTheDocument();

    const recent = screen.getByRole('region', { name: 'Recent Leads' });
    expect(within(recent).getByRole('link', { name: 'Ada Lovelace' })).toHaveAttribute(
      'href',
      '/dashboard/leads/00000000-0000-4000-8000-0000000000a1',
    );
  });

  it('says "No follow-ups due." when none are', async () => {
    mockApi(({ path }) => (path === '/api/overview' ? { body: { ...overview, follow_ups: [] } } : undefined));
    renderWithProviders(<OverviewPage />, { url: '/dashboard' });
    expect(
      await within(await screen.findByRole('region', { name: 'Follow-ups due' })).findByText('No follow-ups due.'),
    ).toBeInTheDocument();
  });
});
