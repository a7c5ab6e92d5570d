// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Lead } from '#shared/schemas/lead';
import { toast } from '#client/components/ui/toast-store.ts';
import { makeLead } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders, type ApiCall } from '#client/test/render-with-providers.tsx';
import { LeadsPage } from './leads-page.tsx';

/** The Leads Manager's sort, owner and date filters, selection and bulk actions, and phone cards. */

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ME = {
  id: '00000000-0000-4000-8000-0000000000aa',
  email: 'me@example.com',
  display_name: 'Mel Owens',
  phone: null,
  role: 'owner' as const,
};
const listBody = (leads: Lead[], total = leads.length, page = 1) => ({ leads, total, page, page_size: 20 });
const currentUrl = () => screen.getByTestId('current-url').textContent ?? '';
const lastList = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/leads?')).at(-1)?.path;
const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });

describe('Leads Manager: sort', () => {
  it('sorts by a column header (its first click ascending, the next descending), with aria-sort and the URL', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi(({ path }) =>
      path.startsWith('/api/leads?') ? { body: listBody([makeLead({ full_name: 'Ada' })], 60) } : undefined,
    );
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads?page=2' });
    await screen.findByRole('link', { name: 'Ada' });
    expect(header('Date Added')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Name')).not.toHaveAttribute('aria-sort');

    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?sort=name'));
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Date Added')).not.toHaveAttribute('aria-sort');
    await waitFor(() => expect(lastList(calls)).toBe('/api/leads?sort=name&page=1&page_size=20'));

    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?sort=name&dir=desc'));
    expect(header('Name')).toHaveAttribute('aria-sort', 'descending');

    await user.click(screen.getByRole('button', { name: 'Next step' }));
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?sort=next_step'));
    await user.click(screen.getByRole('button', { name: 'Status' }));
    await waitFor(() => expect(lastList(calls)).toBe('/api/leads?sort=status&page=1&page_size=20'));
    await user.click(screen.getByRole('button', { name: 'Date Added' }));
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads'));
    await user.click(screen.getByRole('button', { name: 'Date Added' }));
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?dir=asc'));
  });

  it('shows the owner and the next step of each lead', async () => {
    mockApi(({ path }) =>
      path.startsWith('/api/leads?')
        ? {
            body: listBody([
              makeLead({
                full_name: 'Owned',
                owner_id: ME.id,
                owner_email: ME.email,
                owner_name: ME.display_name,
                follow_up_on: '2026-12-01',
                follow_up_note: 'Call about the survey',
              }),
              makeLead({ full_name: 'Free' }),
            ]),
          }
        : undefined,
    );
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    const owned = (await screen.findByRole('row', { name: /Owned/ })) as HTMLElement;
    // The owner by name, not by email.
    expect(within(owned).getByText('Mel Owens')).toBeInTheDocument();
    expect(within(owned).queryByText('me@example.com')).toBeNull();
    expect(within(owned).getByText('Dec 1, 2026')).toBeInTheDocument();
    expect(within(owned).getByText('Call about the survey')).toBeInTheDocument();
    expect(within(owned).getByRole('link', { name: 'Owned' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/dashboard\/leads\/[0-9a-f-]{36}$/),
    );
    expect(within(screen.getByRole('row', { name: /Free/ })).getAllByText('—')).toHaveLength(2);
  });
});

describe('Leads Manager: the suspected-abuse mark', () => {
  it('shows "Booking cancelled as suspected abuse" by the status of a marked lead only', async () => {
    mockApi(({ path }) =>
      path.startsWith('/api/leads?')
        ? {
            body: listBody([
              makeLead({ full_name: 'Marked', suspected_abuse_at: '2026-11-25T17:00:00.000Z' }),
              makeLead({ full_name: 'Clean' }),
            ]),
          }
        : undefined,
    );
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    const marked = (await screen.findByRole('row', { name: /Marked/ })) as HTMLElement;
    expect(within(marked).getByText('Booking cancelled as suspected abuse')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Clean/ })).queryByText(/suspected abuse/)).not.toBeInTheDocument();
  });
});

describe('Leads Manager: owner and dates in the URL', () => {
  it('reads owner, dates, sort and page from the URL and asks the server for them', async () => {
    const { calls } = mockApi(({ path }) => (path.startsWith('/api/leads?') ? { body: listBody([makeLead()], 41, 2) } : undefined));
    renderWithProviders(<LeadsPage />, {
      url: '/dashboard/leads?owner=me&created_from=2026-01-01&created_to=2026-01-31&sort=next_step&dir=desc&page=2',
    });
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
    expect(calls[0]?.path).toBe(
      '/api/leads?owner=me&created_from=2026-01-01&created_to=2026-01-31&sort=next_step&dir=desc&page=2&page_size=20',
    );
    expect(screen.getByRole('combobox', { name: 'Filter by owner' })).toHaveValue('me');
    expect(screen.getByLabelText('From')).toHaveValue('2026-01-01');
    expect(screen.getByLabelText('To')).toHaveValue('2026-01-31');
    expect(header('Next step')).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/leads/export?owner=me&created_from=2026-01-01&created_to=2026-01-31&sort=next_step&dir=desc',
    );
  });

  it('writes the owner filter and the dates to the URL, back to the first page', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi(({ path }) => (path.startsWith('/api/leads?') ? { body: listBody([makeLead()], 60, 2) } : undefined));
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads?page=2' });
    await screen.findByText('Page 2 of 3');
    const owner = screen.getByRole('combobox', { name: 'Filter by owner' });
    expect(
      within(owner)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Anyone', 'Mine', 'Unassigned']);
    await user.selectOptions(owner, 'Unassigned');
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?owner=none'));
    await user.type(screen.getByLabelText('From'), '2026-03-01');
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?owner=none&created_from=2026-03-01'));
    await waitFor(() => expect(lastList(calls)).toBe('/api/leads?owner=none&created_from=2026-03-01&page=1&page_size=20'));
  });

  it('says when the range ends before it starts, and does not ask for it', async () => {
    const { calls } = mockApi(({ path }) => (path.startsWith('/api/leads?') ? { body: listBody([]) } : undefined));
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads?created_from=2026-03-09&created_to=2026-03-08' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The start date must be on or before the end date.');
    expect(screen.getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });
});

describe('Leads Manager: selection and bulk actions', () => {
  const leads = () => [makeLead({ full_name: 'Ann' }), makeLead({ full_name: 'Ben' }), makeLead({ full_name: 'Cy' })];

  it('changes the status of the ticked leads, toasts and clears the selection', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = leads();
    const { calls } = mockApi(({ method, path }) => {
      if (method === 'GET' && path.startsWith('/api/leads?')) return { body: listBody(rows) };
      if (method === 'POST' && path === '/api/leads/bulk') return { body: { updated: 2 } };
      return undefined;
    });
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Ann' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Cy' }));
    const bar = screen.getByRole('region', { name: 'Selected leads' });
    expect(bar).toHaveTextContent('2 leads selected');
    expect(screen.getByRole('checkbox', { name: 'Select all leads on this page' })).toHaveProperty('indeterminate', true);
    expect(within(bar).getByRole('link', { name: 'Export selected' })).toHaveAttribute(
      'href',
      `/api/leads/export?ids=${rows[0]!.id},${rows[2]!.id}`,
    );

    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Change status' }), 'Converted');
    expect(await screen.findByText('2 leads updated.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      ids: [rows[0]!.id, rows[2]!.id],
      action: 'status',
      status: 'Converted',
    });
    expect(screen.queryByRole('region', { name: 'Selected leads' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select Ann' })).not.toBeChecked();
  });

  it('selects the whole page, assigns it to me or nobody', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = leads();
    const { calls } = mockApi(({ method, path }) => {
      if (method === 'GET' && path.startsWith('/api/leads?')) return { body: listBody(rows) };
      if (method === 'POST' && path === '/api/leads/bulk') return { body: { updated: 3 } };
      return undefined;
    });
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads', user: ME });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all leads on this page' }));
    expect(screen.getByRole('region', { name: 'Selected leads' })).toHaveTextContent('3 leads selected');
    await user.click(screen.getByRole('button', { name: 'Assign to me' }));
    expect(await screen.findByText('3 leads updated.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      ids: rows.map((l) => l.id),
      action: 'assign',
      owner_id: ME.id,
    });

    await user.click(screen.getByRole('checkbox', { name: 'Select all leads on this page' }));
    await user.click(screen.getByRole('button', { name: 'Unassign' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ ids: rows.map((l) => l.id), action: 'assign', owner_id: null });
  });

  it('offers the admins to assign to when the list is available', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = leads();
    const other = { id: '00000000-0000-4000-8000-0000000000bb', email: 'other@example.com', display_name: 'Otto Other', role: 'owner' };
    const { calls } = mockApi(({ method, path }) => {
      if (method === 'GET' && path.startsWith('/api/leads?')) return { body: listBody(rows) };
      if (path === '/api/admins') return { body: { admins: [ME, other] } };
      if (method === 'POST' && path === '/api/leads/bulk') return { body: { updated: 1 } };
      return undefined;
    });
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Ben' }));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Assign to' }), 'Otto Other');
    expect(await screen.findByText('1 lead updated.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ ids: [rows[1]!.id], action: 'assign', owner_id: other.id });
  });

  it('deletes the ticked leads only after the confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = leads();
    let deleted = false;
    const { calls } = mockApi(({ method, path }) => {
      if (method === 'GET' && path.startsWith('/api/leads?')) return { body: listBody(deleted ? [] : rows) };
      if (method === 'POST' && path === '/api/leads/bulk') {
        deleted = true;
        return { body: { updated: 3 } };
      }
      return undefined;
    });
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all leads on this page' }));
    await user.click(within(screen.getByRole('region', { name: 'Selected leads' })).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Delete 3 leads? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(screen.getByRole('region', { name: 'Selected leads' })).toHaveTextContent('3 leads selected');

    await user.click(within(screen.getByRole('region', { name: 'Selected leads' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('3 leads deleted.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ ids: rows.map((l) => l.id), action: 'delete' });
    expect(await screen.findByText('No leads found')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('toasts when a bulk action fails and keeps the selection', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup({ delay: null });
    const rows = leads();
    mockApi(({ method, path }) => (method === 'GET' && path.startsWith('/api/leads?') ? { body: listBody(rows) } : undefined));
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads', user: ME });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Ann' }));
    await user.click(screen.getByRole('button', { name: 'Assign to me' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The leads could not be updated. Please try again.');
    expect(screen.getByRole('checkbox', { name: 'Select Ann' })).toBeChecked();
  });

  it('starts a new view (another page) with nothing selected', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi(({ method, path }) => (method === 'GET' && path.startsWith('/api/leads?') ? { body: listBody(leads(), 60) } : undefined));
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    await user.click(await screen.findByRole('checkbox', { name: 'Select Ann' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?page=2'));
    expect(screen.queryByRole('region', { name: 'Selected leads' })).not.toBeInTheDocument();
  });
});

describe('Leads Manager on a phone', () => {
  it('shows a card per lead with its link, status, contact, date, actions and checkbox, and a sort select', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 639px)',
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    const user = userEvent.setup({ delay: null });
    const lead = makeLead({ full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '555-0101', status: 'Converted' });
    mockApi(({ path }) => (path.startsWith('/api/leads?') ? { body: listBody([lead]) } : undefined));
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    const card = (await screen.findByRole('listitem')) as HTMLElement;
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Ada Lovelace' })).toHaveAttribute('href', `/dashboard/leads/${lead.id}`);
    expect(within(card).getByText('Converted')).toHaveClass('bg-green-100');
    expect(within(card).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(card).getByText('555-0101')).toBeInTheDocument();
    expect(within(card).getByText('Jan 5, 2025')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Edit Ada Lovelace' })).toBeInTheDocument();
    await user.click(within(card).getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    expect(screen.getByRole('region', { name: 'Selected leads' })).toHaveTextContent('1 lead selected');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Name, Z to A');
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads?sort=name&dir=desc'));
  });
});

describe('Leads Manager filters on a phone', () => {
  it('fold behind one Filters button that says how many are on and opens and closes them', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi(({ path }) => (path.startsWith('/api/leads?') ? { body: listBody([makeLead({ full_name: 'Ada' })]) } : undefined));
    renderWithProviders(<LeadsPage />, {
      url: '/dashboard/leads?status=New&owner=me&created_from=2026-01-01&created_to=2026-01-31&search=ada',
    });
    await screen.findByRole('link', { name: 'Ada' });
    // Status, owner and the date added (one filter, both ends): three; the search is not a filter.
    const button = screen.getByRole('button', { name: 'Filters 3 on' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(panel).toHaveClass('hidden', 'sm:contents');
    expect(within(panel).getByRole('combobox', { name: 'Filter by status' })).toHaveValue('New');
    expect(within(panel).getByRole('link', { name: /Export CSV/ })).toBeInTheDocument();
    // The search box stays out of the fold.
    expect(panel).not.toContainElement(screen.getByRole('searchbox', { name: 'Search leads' }));

    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(panel).toHaveClass('flex');
    expect(panel).not.toHaveClass('hidden');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(panel).toHaveClass('hidden');
  });

  it('say just Filters when none is on, and stay open while the date range cannot be asked for', async () => {
    mockApi(({ path }) => (path.startsWith('/api/leads?') ? { body: listBody([makeLead({ full_name: 'Ada' })]) } : undefined));
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads' });
    await screen.findByRole('link', { name: 'Ada' });
    expect(screen.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'false');
    cleanup();
    renderWithProviders(<LeadsPage />, { url: '/dashboard/leads?created_from=2026-02-01&created_to=2026-01-01' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The start date must be on or before the end date.');
    expect(screen.getByRole('button', { name: 'Filters 1 on' })).toHaveAttribute('aria-expanded', 'true');
  });
});

describe('Leads Manager: the leads of one Analytics sources row', () => {
  it('asks for exactly that row, says so, exports the same, and shows every lead again on request', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi(({ path }) =>
      path.startsWith('/api/leads?') ? { body: listBody([makeLead({ full_name: 'Ada' })]) } : undefined,
    );
    const utm = encodeURIComponent(JSON.stringify(['google', 'cpc', 'spring']));
    renderWithProviders(<LeadsPage />, {
      url: `/dashboard/leads?origin=utm&origin_value=${utm}&visit_from=2026-11-01&visit_to=2026-11-07`,
    });
    await screen.findByRole('link', { name: 'Ada' });
    expect(lastList(calls)).toBe(`/api/leads?origin=utm&origin_value=${utm}&visit_from=2026-11-01&visit_to=2026-11-07&page=1&page_size=20`);
    const note = screen.getAllByRole('status').find((s) => s.textContent?.startsWith('From Analytics'));
    expect(note).toHaveTextContent('From Analytics: google / cpc / spring, visits Nov 1, 2026 – Nov 7, 2026');
    expect(screen.getByRole('link', { name: /Export CSV/ })).toHaveAttribute(
      'href',
      `/api/leads/export?origin=utm&origin_value=${utm}&visit_from=2026-11-01&visit_to=2026-11-07`,
    );

    await user.click(screen.getByRole('button', { name: 'Show all leads' }));
    await waitFor(() => expect(currentUrl()).toBe('/dashboard/leads'));
    await waitFor(() => expect(lastList(calls)).toBe('/api/leads?page=1&page_size=20'));
    expect(screen.queryByText(/From Analytics/)).not.toBeInTheDocument();
  });
});
