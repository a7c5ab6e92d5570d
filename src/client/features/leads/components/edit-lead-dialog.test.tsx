// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeadDetail } from '#shared/schemas/lead';
import '#client/test/happy-dom-shims.ts';
import { toast } from '#client/components/ui/toast-store.ts';
import { makeLeadDetail } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { EditLeadDialog } from './edit-lead-dialog.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const lead: LeadDetail = makeLeadDetail({
  full_name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '555-0101',
  property_types: ['multifamily'],
  message: 'Duplex',
  status: 'Contacted',
  contacted: true,
  status_history: [
    { from_status: null, to_status: 'New', changed_at: '2025-01-05T14:30:00.000Z', changed_by: null },
    { from_status: 'New', to_status: 'Contacted', changed_at: '2025-01-06T09:05:00.000Z', changed_by: 'staff@example.com' },
  ],
});

function serve(patchStatus = 200) {
  return mockApi(({ method, path, body }) => {
    if (path !== `/api/leads/${lead.id}`) return undefined;
    if (method === 'GET') return { body: lead };
    if (method === 'PATCH')
      return patchStatus === 200
        ? { body: { ...lead, ...(body as object) } }
        : { status: patchStatus, body: { error: { code: 'internal_error', message: 'Internal error' } } };
    return undefined;
  });
}

async function openForm() {
  const user = userEvent.setup({ delay: null });
  const onClose = vi.fn();
  renderWithProviders(<EditLeadDialog leadId={lead.id} onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: 'Edit Lead' });
  await within(dialog).findByLabelText('Full Name');
  return { user, dialog, onClose };
}

describe('EditLeadDialog', () => {
  it('is pre-filled from the server and shows the status history', async () => {
    serve();
    const { dialog } = await openForm();
    expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Ada Lovelace');
    expect(within(dialog).getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(within(dialog).getByLabelText('Phone')).toHaveValue('555-0101');
    expect(within(dialog).getByLabelText('Property Type')).toHaveValue('multifamily');
    expect(within(dialog).getByLabelText('Additional Information')).toHaveValue('Duplex');
    expect(within(dialog).getByLabelText('Contacted')).toHaveDisplayValue('Yes');
    expect(within(dialog).getByLabelText('Status')).toHaveValue('Contacted');

    const history = within(dialog).getByRole('region', { name: 'Status history' });
    const items = within(history).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Created as New');
    expect(items[0]).toHaveTextContent('Website form');
    expect(items[1]).toHaveTextContent('New → Contacted');
    expect(items[1]).toHaveTextContent('staff@example.com');
    expect(items[1]).toHaveTextContent(/Jan 6, \d{1,2}:05 (AM|PM)/);
  });

  it('sends only the fields that changed, then toasts and closes', async () => {
    const { calls } = serve();
    const { user, dialog, onClose } = await openForm();
    const phone = within(dialog).getByLabelText('Phone');
    await user.clear(phone);
    await user.type(phone, '555-9999');
    await user.selectOptions(within(dialog).getByLabelText('Status'), 'Converted');
    await user.click(within(dialog).getByRole('button', { name: 'Update Lead' }));

    expect(await screen.findByText('Lead updated successfully')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([
      { method: 'PATCH', path: `/api/leads/${lead.id}`, body: { phone: '555-9999', status: 'Converted' } },
    ]);
    expect(onClose).toHaveBeenCalled();
  });

  it('sends contacted alone when only Contacted changes', async () => {
    const { calls } = serve();
    const { user, dialog } = await openForm();
    await user.selectOptions(within(dialog).getByLabelText('Contacted'), 'No');
    await user.click(within(dialog).getByRole('button', { name: 'Update Lead' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ contacted: false }]));
  });

  it('sends nothing when nothing changed', async () => {
    const { calls } = serve();
    const { user, dialog, onClose } = await openForm();
    await user.click(within(dialog).getByRole('button', { name: 'Update Lead' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it("validates with the product's messages and toasts Failed to update lead when the server fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    serve(500);
    const { user, dialog, onClose } = await openForm();
    await user.clear(within(dialog).getByLabelText('Full Name'));
    await user.click(within(dialog).getByRole('button', { name: 'Update Lead' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Full Name'), 'Ada King');
    await user.click(within(dialog).getByRole('button', { name: 'Update Lead' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update lead');
    expect(onClose).not.toHaveBeenCalled();
  });
});
