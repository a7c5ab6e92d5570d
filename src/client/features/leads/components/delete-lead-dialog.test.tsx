// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '#client/test/happy-dom-shims.ts';
import { toast } from '#client/components/ui/toast-store.ts';
import { makeLead } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { DeleteLeadDialog } from './delete-lead-dialog.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const lead = makeLead({ full_name: 'Dana Delete' });
const CONFIRMATION = 'Are you sure you want to delete this lead? This action cannot be undone.';

function serve(counts: { total: number; upcoming: number } | 'fails', deleteStatus = 200) {
  return mockApi(({ method, path }) => {
    if (method === 'GET' && path === `/api/leads/${lead.id}/appointment-counts`)
      return counts === 'fails'
        ? { status: 500, body: { error: { code: 'internal_error', message: 'Internal error' } } }
        : { body: counts };
    if (method === 'DELETE' && path.startsWith(`/api/leads/${lead.id}`))
      return deleteStatus === 200
        ? { body: { id: lead.id, appointments_cancelled: 0, appointments_deleted: 0 } }
        : { status: deleteStatus, body: { error: { code: 'not_found', message: 'Lead not found.' } } };
    return undefined;
  });
}

function open() {
  const onClose = vi.fn();
  const onDeleted = vi.fn();
  renderWithProviders(<DeleteLeadDialog lead={lead} onClose={onClose} onDeleted={onDeleted} />);
  return { user: userEvent.setup({ delay: null }), onClose, onDeleted };
}

describe('DeleteLeadDialog', () => {
  it('asks the usual question, without choices, for a lead with no appointments, and deletes it', async () => {
    const { calls } = serve({ total: 0, upcoming: 0 });
    const { user, onClose, onDeleted } = open();
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete lead' });
    expect(dialog).toHaveTextContent(CONFIRMATION);
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled());
    expect(within(dialog).queryByRole('radio')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Lead deleted successfully')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/leads/${lead.id}`]);
    expect(onDeleted).toHaveBeenCalledOnce();
    expect(onClose).toHaveBeenCalled();
  });

  it('asks what becomes of the appointments (Keep by default) and sends the choice', async () => {
    const { calls } = serve({ total: 3, upcoming: 1 });
    const { user } = open();
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete lead' });
    expect(dialog).toHaveTextContent(CONFIRMATION);
    expect(await within(dialog).findByText('This lead has 3 appointments, 1 still to come.')).toBeInTheDocument();
    const group = within(dialog).getByRole('group', { name: 'What should happen to them?' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual(['Keep them (shown as Unknown Lead)', 'Cancel them', 'Delete them']);
    expect(within(group).getByRole('radio', { name: 'Keep them (shown as Unknown Lead)' })).toBeChecked();

    await user.click(within(group).getByRole('radio', { name: 'Cancel them' }));
    expect(within(group).getByRole('radio', { name: 'Cancel them' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Lead deleted successfully');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/leads/${lead.id}?appointments=cancel`]);
  });

  it('says "1 appointment" and leaves out the upcoming part when none is to come', async () => {
    serve({ total: 1, upcoming: 0 });
    open();
    expect(await screen.findByText('This lead has 1 appointment.')).toBeInTheDocument();
  });

  it('deletes as before (keeping the appointments) when the count cannot be had', async () => {
    const { calls } = serve('fails');
    const { user } = open();
    const dialog = await screen.findByRole('alertdialog');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled());
    expect(within(dialog).queryByRole('radio')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Lead deleted successfully');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/leads/${lead.id}`]);
  });

  it('toasts Failed to delete lead when the delete fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    serve({ total: 2, upcoming: 2 }, 404);
    const { user, onDeleted } = open();
    const dialog = await screen.findByRole('alertdialog');
    await user.click(await within(dialog).findByRole('radio', { name: 'Delete them' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete lead');
    expect(onDeleted).not.toHaveBeenCalled();
  });
});
