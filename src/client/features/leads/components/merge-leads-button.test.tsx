// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Lead } from '#shared/schemas/lead';
import '#client/test/happy-dom-shims.ts';
import { toast } from '#client/components/ui/toast-store.ts';
import { makeLead, makeLeadDetail } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { MergeLeadsButton } from './merge-leads-button.tsx';

// The dialog loads on first open; loaded here, so a busy machine's first transform does not eat a test's waiting time.
beforeAll(async () => {
  await import('./merge-leads-dialog.tsx');
});

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const lead = makeLead({
  full_name: 'Samuel Same',
  email: 'sam@example.com',
  phone: '555-0002',
  status: 'Contacted',
  property_types: ['commercial'],
});
const older = makeLead({
  full_name: 'Sam Same',
  email: 'sam@example.com',
  phone: '555-0002',
  status: 'Converted',
  property_types: ['commercial'],
  owner_email: 'owner@example.com',
  owner_name: 'Olga Owner',
  owner_id: '00000000-0000-4000-8000-0000000000aa',
  estimated_fee_cents: 125_000,
  created_at: '2024-11-03T10:00:00.000Z',
});
const third = makeLead({
  full_name: 'S. Same',
  email: 'sam@example.com',
  phone: '555-0009',
  status: 'Dropped',
  property_types: ['commercial'],
});

function serve(duplicates: Lead[], mergeStatus = 200) {
  // As the server does: once merged, the duplicate is gone (the refetch after the merge finds none).
  let remaining = duplicates;
  return mockApi(({ method, path }) => {
    if (method === 'GET' && path === `/api/leads/${lead.id}/duplicates`) return { body: { leads: remaining } };
    if (method === 'POST' && path === `/api/leads/${lead.id}/merge` && mergeStatus === 200) remaining = [];
    if (method === 'POST' && path === `/api/leads/${lead.id}/merge`)
      return mergeStatus === 200
        ? { body: makeLeadDetail({ ...lead, full_name: 'Sam Same' }) }
        : { status: mergeStatus, body: { error: { code: 'bad_request', message: 'Only leads with the same email can be merged.' } } };
    return undefined;
  });
}

const render = () => renderWithProviders(<MergeLeadsButton lead={lead} />, { url: '/dashboard/leads/somewhere-else' });

describe('MergeLeadsButton', () => {
  it('shows nothing when no other lead has this email', async () => {
    const { calls } = serve([]);
    render();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Merge' })).not.toBeInTheDocument();
  });

  it('asks only about the fields that differ, confirms once, merges the choices and opens the kept lead', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve([older]);
    render();
    await user.click(await screen.findByRole('button', { name: 'Merge' }));
    const dialog = await screen.findByRole('dialog', { name: 'Merge duplicate leads' });
    expect(dialog).toHaveTextContent('Sam Same, added Nov 3, 2024, has the same email (sam@example.com).');
    // Name, status, owner and fee differ; phone and property type are the same on both.
    const groups = within(dialog).getAllByRole('group');
    expect(groups.map((g) => g.querySelector('legend')?.textContent)).toEqual(['Name', 'Status', 'Owner', 'Estimated fee']);
    const owner = within(dialog).getByRole('group', { name: 'Owner' });
    expect(within(owner).getByRole('radio', { name: /Nobody/ })).toBeChecked();
    expect(within(owner).getByRole('radio', { name: /Olga Owner/ })).not.toBeChecked();
    expect(within(dialog).getByRole('group', { name: 'Estimated fee' })).toHaveTextContent('$1,250.00');

    await user.click(within(within(dialog).getByRole('group', { name: 'Name' })).getByRole('radio', { name: /Sam Same/ }));
    await user.click(within(owner).getByRole('radio', { name: /Olga Owner/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    // One confirmation, with a way back that keeps the choices.
    expect(dialog).toHaveTextContent('Merge these leads? This cannot be undone.');
    expect(within(dialog).getByRole('button', { name: 'Back' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(within(within(dialog).getByRole('group', { name: 'Owner' })).getByRole('radio', { name: /Olga Owner/ })).toBeChecked();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    expect(await screen.findByText('Leads merged successfully')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: `/api/leads/${lead.id}/merge`,
        body: { other_id: older.id, keep: { full_name: 'other', status: 'this', owner_id: 'other', estimated_fee_cents: 'this' } },
      },
    ]);
    await waitFor(() => expect(screen.getByTestId('current-url')).toHaveTextContent(`/dashboard/leads/${lead.id}`));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('lets you pick which duplicate when there are several, and toasts a refusal', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup({ delay: null });
    const { calls } = serve([older, third], 400);
    render();
    await user.click(await screen.findByRole('button', { name: 'Merge' }));
    const dialog = await screen.findByRole('dialog');
    const which = within(dialog).getByRole('group', { name: 'Which lead should be merged into this one?' });
    await user.click(within(which).getByRole('radio', { name: /S\. Same \(Dropped\)/ }));
    expect(within(dialog).getByRole('group', { name: 'Phone' })).toHaveTextContent('555-0009');
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to merge leads');
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ other_id: third.id });
    // Back at the chooser, nothing lost.
    expect(within(dialog).getByRole('group', { name: 'Which lead should be merged into this one?' })).toBeInTheDocument();
  });
});
