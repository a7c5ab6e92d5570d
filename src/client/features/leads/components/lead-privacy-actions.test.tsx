// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import '#client/test/happy-dom-shims.ts';
import { toast } from '#client/components/ui/toast-store.ts';
import { makeLead } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { LeadPrivacyActions } from './lead-privacy-actions.tsx';

// The dialog loads on first open; loaded here, so a busy machine's first transform does not eat a test's waiting time.
beforeAll(async () => {
  await import('#client/components/ui/confirm-dialog.tsx');
});

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const lead = makeLead({ full_name: 'Quincy Vale' });
const ERASED = { erased: true, appointments_kept: 1, notifications_removed: 2, events_removed: 7, calendars_unreachable: [] };

describe('LeadPrivacyActions', () => {
  it('offers the export as a download of the lead’s JSON', () => {
    mockApi(() => undefined);
    renderWithProviders(<LeadPrivacyActions lead={lead} />, { url: `/dashboard/leads/${lead.id}` });
    const link = screen.getByRole('link', { name: 'Export everything' });
    expect(link).toHaveAttribute('href', `/api/leads/${lead.id}/export`);
    expect(link).toHaveAttribute('download');
  });

  it('erases only after the confirmation that says what goes and what stays, then opens the Leads Manager', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi(({ method, path }) =>
      method === 'POST' && path === `/api/leads/${lead.id}/erase` ? { body: ERASED } : undefined,
    );
    renderWithProviders(<LeadPrivacyActions lead={lead} />, { url: `/dashboard/leads/${lead.id}` });

    await user.click(screen.getByRole('button', { name: 'Erase' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Erase Quincy Vale?' });
    expect(dialog).toHaveTextContent(
      'Everything we hold about Quincy Vale will be removed: the lead, its notes, timeline and emails, the notifications that name them and their visits to the site. Their appointments stay on the calendar without their name, notes or place. This cannot be undone.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Erase' }));
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Erase' }));
    expect(await screen.findByText('Lead erased successfully')).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`POST /api/leads/${lead.id}/erase`]);
    await waitFor(() => expect(screen.getByTestId('current-url')).toHaveTextContent(/^\/dashboard\/leads$/));
  });

  it('hands the aftermath to onErased when given, and toasts a failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup({ delay: null });
    let fail = true;
    mockApi(({ method }) =>
      method === 'POST'
        ? fail
          ? { status: 404, body: { error: { code: 'not_found', message: 'Lead not found.' } } }
          : { body: ERASED }
        : undefined,
    );
    const onErased = vi.fn();
    renderWithProviders(<LeadPrivacyActions lead={lead} onErased={onErased} />, { url: '/somewhere' });
    await user.click(screen.getByRole('button', { name: 'Erase' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Erase' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to erase lead');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Erase' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Erase' }));
    await waitFor(() => expect(onErased).toHaveBeenCalledOnce());
    expect(screen.getByTestId('current-url')).toHaveTextContent('/somewhere');
  });
});
