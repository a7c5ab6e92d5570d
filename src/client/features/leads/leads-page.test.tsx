// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Lead } from '#shared/schemas/lead';
import { toast } from '#client/components/ui/toast-store.ts';
import { makeLead } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { LeadsPage } from './leads-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const listBody = (leads: Lead[], total = leads.length, page = 1) => ({ leads, total, page, page_size: 20 });
const currentUrl = () => screen.getByTestId('current-url').textContent ?? '';

describe('LeadsPage', () => {
  it('shows a spinner, then each lead with contact, property type, status, date and actions', async () => {
    mockApi(({ method, path }) =>
      method === 'GET' && path.startsWith('/api/leads?')
        ? {
            body: listBody(
              [
                makeLead({
                  full_name: 'Ada Lovelace',
                  email: 'ada@example.com',
                  phone: '555-0101',
                  property_types: ['single-family'],
                  status: 'Contacted',
                }),
                makeLead({ full_name: 'Bad Date', created_at: 'not a date', status: 'Dropped', property_types: ['land'] }),
              ],
              45,
            ),
          }
        : undefined,
    );
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    expect(screen.getByRole('heading', { level: 1, name: 'Leads' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading leads...');

    const row = (await screen.findByRole('row', { name: /Ada Lovelace/ })) as HTMLElement;
    expect(within(row).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(row).getByText('555-0101')).toBeInTheDocument();
    expect(within(row).getByText('Single family')).toBeInTheDocument();
    expect(within(row).getByText('Contacted')).toHaveClass('bg-yellow-100');
    expect(within(row).getByText('Jan 5, 2025')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Edit Ada Lovelace' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Delete Ada Lovelace' })).toBeInTheDocument();

    const bad = screen.getByRole('row', { name: /Bad Date/ });
    expect(within(bad).getByText('N/A')).toBeInTheDocument();
    expect(within(bad).getByText('Dropped')).toHaveClass('bg-red-100');
    expect(screen.getByText('45 leads')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
  });

  it('says No leads found when nothing matches', async () => {
    mockApi(({ path }) => (path.startsWith('/api/leads?') ? { body: listBody([]) } : undefined));
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    expect(await screen.findByText('No leads found')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument();
  });

  it('toasts Failed to load leads when the list cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi(() => ({ status: 500, body: { error: { code: 'internal_error', message: 'Internal error' } } }));
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load leads');
  });

  it('writes the search (after a pause), the filters and the page to the URL, and asks the server for them', async () => {
    const user = userEvent.setup();
    const { calls } = mockApi(({ path }) => (path.startsWith('/api/leads?') ? { body: listBody([makeLead()], 60) } : undefined));
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    await screen.findByText('Page 1 of 3');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?page=2'));

    await user.type(screen.getByRole('searchbox', { name: 'Search leads' }), 'ada');
    expect(screen.getByPlaceholderText('Search leads...')).toHaveValue('ada');
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?search=ada'));
    // Debounced: one request for the whole word, none per keystroke.
    expect(calls.filter((c) => c.path.includes('search=a&') || c.path.includes('search=ad&'))).toHaveLength(0);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by status' }), 'Contacted');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by property type' }), 'Single family');
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?search=ada&status=Contacted&property_type=single-family'));
    await waitFor(() =>
      expect(calls.at(-1)?.path).toBe('/api/leads?search=ada&status=Contacted&property_type=single-family&page=1&page_size=20'),
    );
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/leads/export?search=ada&status=Contacted&property_type=single-family',
    );
  });

  it('reads the view from the URL, so a shared link opens the same page', async () => {
    const { calls } = mockApi(({ path }) => (path.startsWith('/api/leads?') ? { body: listBody([makeLead()], 41, 3) } : undefined));
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads?search=smith&status=Converted&property_type=land&page=3' });
    expect(await screen.findByText('Page 3 of 3')).toBeInTheDocument();
    expect(calls[0]?.path).toBe('/api/leads?search=smith&status=Converted&property_type=land&page=3&page_size=20');
    expect(screen.getByRole('searchbox', { name: 'Search leads' })).toHaveValue('smith');
    expect(screen.getByRole('combobox', { name: 'Filter by status' })).toHaveValue('Converted');
    expect(screen.getByRole('combobox', { name: 'Filter by property type' })).toHaveValue('land');
  });

  it('deletes a lead after the confirmation and toasts', async () => {
    const user = userEvent.setup();
    const lead = makeLead({ full_name: 'Grace Hopper' });
    let deleted = false;
    const { calls } = mockApi(({ method, path }) => {
      if (method === 'GET' && path.startsWith('/api/leads?')) return { body: listBody(deleted ? [] : [lead]) };
      if (method === 'DELETE' && path === `/api/leads/${lead.id}`) {
        deleted = true;
        return { body: { id: lead.id } };
      }
      return undefined;
    });
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    await user.click(await screen.findByRole('button', { name: 'Delete Grace Hopper' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this lead? This action cannot be undone.');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Grace Hopper' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Lead deleted successfully')).toBeInTheDocument();
    expect(await screen.findByText('No leads found')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('toasts Failed to delete lead when the delete fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const lead = makeLead({ full_name: 'Gone Already' });
    mockApi(({ method, path }) =>
      method === 'GET' && path.startsWith('/api/leads?')
        ? { body: listBody([lead]) }
        : { status: 404, body: { error: { code: 'not_found', message: 'Lead not found.' } } },
    );
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    await user.click(await screen.findByRole('button', { name: 'Delete Gone Already' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete lead');
  });
});
