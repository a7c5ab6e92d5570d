// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeadDetail } from '#shared/schemas/lead';
import type { Note, TimelineEntry } from '#shared/schemas/lead-workspace';
import '#client/test/happy-dom-shims.ts';
import { toast } from '#client/components/ui/toast-store.ts';
import { AuthProvider } from '#client/lib/auth.tsx';
import { localDate } from '#client/lib/follow-up.ts';
import { FIXTURE_LOST_REASONS, FIXTURE_STAGES, makeLeadDetail } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders, type ApiCall } from '#client/test/render-with-providers.tsx';
import { LeadPage } from './lead-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ME = {
  id: '00000000-0000-4000-8000-00000000aaaa',
  email: 'me@firm.test',
  display_name: 'Maya Morgan',
  phone: null,
  role: 'staff' as const,
};
const OTHER = {
  id: '00000000-0000-4000-8000-00000000bbbb',
  email: 'ann@firm.test',
  display_name: 'Ann Other',
  phone: null,
  role: 'owner' as const,
};
const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const lead: LeadDetail = makeLeadDetail({
  full_name: 'Jane Doe',
  email: 'jane@example.com',
  phone: '(301) 555-0142',
  message: 'Duplex in Frederick.\nSee https://example.com/listing please',
  from_form: true,
  owner_id: OTHER.id,
  owner_email: OTHER.email,
  owner_name: OTHER.display_name,
  estimated_fee_cents: 1_250_000,
  property_address: '12 Market St, Frederick, MD',
  target_closing_date: '2026-12-15',
  created_at: ago(30 * 24 * HOUR),
});

const note = (overrides: Partial<Note>): Note => ({
  id: '00000000-0000-4000-8000-0000000000n1'.replace('n1', '01'),
  lead_id: lead.id,
  body: 'Called her.',
  author_id: ME.id,
  author_email: ME.email,
  author_name: ME.display_name,
  created_at: ago(3 * HOUR),
  updated_at: ago(3 * HOUR),
  ...overrides,
});

const visit = {
  source: 'google',
  utm_source: 'google',
  utm_medium: 'cpc',
  utm_campaign: 'spring',
  landing_page: '/pricing',
  pages_viewed: 4,
};

/** One entry of every kind the contract has, newest first. */
const ENTRIES: TimelineEntry[] = [
  {
    id: 'note-1',
    kind: 'note',
    at: ago(1 * HOUR),
    actor: ME.display_name,
    note: note({
      id: '00000000-0000-4000-8000-000000000001',
      body: 'Mine: line one\nline two https://docs.test/a javascript:alert(1)',
      created_at: ago(1 * HOUR),
      updated_at: ago(1 * HOUR),
    }),
  },
  {
    id: 'note-2',
    kind: 'note',
    at: ago(2 * HOUR),
    actor: OTHER.display_name,
    note: note({
      id: '00000000-0000-4000-8000-000000000002',
      body: 'Theirs: <img src=x onerror=alert(1)>',
      author_id: OTHER.id,
      author_email: OTHER.email,
      author_name: OTHER.display_name,
    }),
  },
  {
    id: 'email-1',
    kind: 'email_out',
    at: ago(3 * HOUR),
    actor: null,
    email_id: '00000000-0000-4000-8000-0000000000e0',
    email_kind: 'lead_ack',
    subject: 'We received your request',
    to: 'jane@example.com',
    status: 'failed',
    error: '550 Mailbox unavailable',
    thread_id: '00000000-0000-4000-8000-0000000000e0',
    thread_size: 1,
    thread_unread: 0,
    body: null,
  },
  {
    id: 'appt-4',
    kind: 'appointment',
    at: ago(4 * HOUR),
    actor: ME.display_name,
    action: 'completed',
    appointment_id: 'a1',
    type: 'Call',
    date: '2026-11-20',
    time: '10:00',
    from_date: null,
    from_time: null,
    by: 'staff',
    booked_as: null,
  },
  {
    id: 'appt-3',
    kind: 'appointment',
    at: ago(5 * HOUR),
    actor: null,
    action: 'cancelled',
    appointment_id: 'a2',
    type: 'Zoom',
    date: '2026-11-21',
    time: '11:00',
    from_date: null,
    from_time: null,
    by: 'lead',
    booked_as: 'Mallory Stranger',
  },
  {
    id: 'appt-2',
    kind: 'appointment',
    at: ago(6 * HOUR),
    actor: ME.display_name,
    action: 'moved',
    appointment_id: 'a1',
    type: 'Call',
    date: '2026-11-20',
    time: '10:00',
    from_date: '2026-11-19',
    from_time: '09:30',
    by: 'staff',
    booked_as: null,
  },
  {
    id: 'appt-1',
    kind: 'appointment',
    at: ago(7 * HOUR),
    actor: ME.display_name,
    action: 'scheduled',
    appointment_id: 'a1',
    type: 'Call',
    date: '2026-11-19',
    time: '09:30',
    from_date: null,
    from_time: null,
    by: 'staff',
    booked_as: null,
  },
  { id: 'fu-2', kind: 'follow_up', at: ago(8 * HOUR), actor: ME.display_name, on: null, note: null },
  { id: 'fu-1', kind: 'follow_up', at: ago(9 * HOUR), actor: ME.display_name, on: '2026-11-25', note: 'send the zoning report' },
  { id: 'owner-1', kind: 'owner', at: ago(10 * HOUR), actor: ME.display_name, from: ME.display_name, to: OTHER.display_name },
  { id: 'status-1', kind: 'status', at: ago(11 * HOUR), actor: ME.display_name, from_status: 'New', to_status: 'Contacted' },
  {
    id: 'inq-1',
    kind: 'inquiry',
    at: ago(12 * HOUR),
    actor: null,
    message: 'Any news? https://example.com/x',
    full_name: 'Jane D.',
    phone: '(301) 555-0000',
    visit,
  },
  { id: 'merged-1', kind: 'merged', at: ago(13 * HOUR), actor: ME.display_name, full_name: 'J. Doe', email: 'jd@example.com' },
  { id: 'imported-1', kind: 'imported', at: ago(14 * HOUR), actor: null, file: 'leads-2026.csv' },
  { id: 'created-2', kind: 'created', at: ago(15 * HOUR), actor: ME.display_name, via: 'staff', message: null, visit: null },
  { id: 'created-3', kind: 'created', at: ago(15 * HOUR), actor: null, via: 'import', message: null, visit: null },
  { id: 'created-1', kind: 'created', at: ago(16 * HOUR), actor: null, via: 'form', message: 'Duplex in Frederick.', visit },
];

type Options = {
  detail?: LeadDetail;
  entries?: TimelineEntry[];
  hasMore?: boolean;
  handle?: (call: ApiCall) => { status?: number; body: unknown } | undefined;
};

function serve({ detail = lead, entries = ENTRIES, hasMore = false, handle }: Options = {}) {
  let current = detail;
  const api = mockApi((call) => {
    const own = handle?.(call);
    if (own) return own;
    const { method, path, body } = call;
    if (path === '/api/auth/session') return { body: { user: ME } };
    if (path === '/api/admins') return { body: { admins: [ME, OTHER] } };
    if (path === '/api/pipeline/stages') return { body: { stages: FIXTURE_STAGES, lost_reasons: FIXTURE_LOST_REASONS } };
    if (path.startsWith(`/api/leads/${current.id}/timeline`)) {
      return path.includes('before=')
        ? { body: { entries: [{ id: 'old-1', kind: 'imported', at: ago(100 * HOUR), actor: null, file: 'older.csv' }], has_more: false } }
        : { body: { entries, has_more: hasMore } };
    }
    if (path === `/api/leads/${current.id}`) {
      if (method === 'GET') return { body: current };
      if (method === 'PATCH') {
        const patch = body as Partial<LeadDetail>;
        const owner = 'owner_id' in patch ? [ME, OTHER].find((a) => a.id === patch.owner_id) : undefined;
        current = {
          ...current,
          ...patch,
          ...('owner_id' in patch && { owner_email: owner?.email ?? null, owner_name: owner?.display_name ?? null }),
        };
        return { body: current };
      }
    }
    return undefined;
  });
  return api;
}

function renderPage(id = lead.id) {
  return renderWithProviders(
    <AuthProvider>
      <Routes>
        <Route path="/dashboard/leads/:id" element={<LeadPage />} />
        <Route path="/dashboard/leads" element={<p>The leads list</p>} />
      </Routes>
    </AuthProvider>,
    { url: `/dashboard/leads/${id}` },
  );
}

const timeline = () => screen.getByRole('list', { name: 'Timeline, newest first' });

describe('LeadPage', () => {
  it('shows the lead: heading, details with the fee in dollars, the quoted message, quick actions', async () => {
    serve();
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Doe' })).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByText('$12,500')).toBeInTheDocument();
    expect(within(details).getByText('12 Market St, Frederick, MD')).toBeInTheDocument();
    expect(within(details).getByText('Dec 15, 2026')).toBeInTheDocument();
    expect(within(details).getByText('Single family')).toBeInTheDocument(); // as the list shows it
    const message = screen.getByRole('region', { name: 'Customer’s message' });
    expect(message.querySelector('blockquote')).toHaveTextContent('Duplex in Frederick.');
    expect(within(message).getByRole('link', { name: 'https://example.com/listing' })).toHaveAttribute(
      'href',
      'https://example.com/listing',
    );
    expect(screen.getByRole('button', { name: 'Send email' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Call' })).toHaveAttribute('href', 'tel:3015550142');
    expect(screen.getByRole('link', { name: 'Back to Leads' })).toHaveAttribute('href', '/dashboard/leads');
  });

  it('renders every kind of timeline entry, newest first, with who and a relative time over the exact one', async () => {
    serve();
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Jane Doe' });
    const items = within(await waitFor(timeline)).getAllByRole('listitem');
    expect(items.map((li) => li.dataset.kind)).toEqual(ENTRIES.map((e) => e.kind));
    const text = items.map((li) => li.textContent ?? '');
    expect(text[0]).toContain('Mine: line one');
    expect(text[2]).toMatch(/Email: We received your request\s*Failed/);
    expect(text[2]).toContain('To jane@example.com');
    expect(text[3]).toMatch(/Call on Nov 20, 10:00 AM marked as completed/);
    expect(text[4]).toMatch(/Zoom on Nov 21, 11:00 AM cancelled.*Mallory Stranger, through a repeat form’s link/);
    expect(text[5]).toMatch(/Call moved from Nov 19, 9:30 AM to Nov 20, 10:00 AM/);
    expect(text[6]).toMatch(/Call on Nov 19, 9:30 AM scheduled/);
    expect(text[7]).toContain('Next step cleared');
    expect(text[8]).toContain('Next step set: Follow up on Nov 25');
    expect(text[8]).toContain('send the zoning report');
    expect(text[9]).toContain(`Reassigned from ${ME.display_name} to ${OTHER.display_name}`);
    expect(text[10]).toContain('Status changed from New to Contacted');
    expect(text[11]).toMatch(/Wrote again.*the lead/);
    expect(text[11]).toContain('As Jane D., (301) 555-0000');
    expect(text[11]).toContain('Source: google · Campaign: google / cpc / spring · Landed on /pricing · 4 pages viewed');
    expect(within(items[11]!).getByRole('link', { name: 'https://example.com/x' })).toBeInTheDocument();
    expect(text[12]).toContain('Merged with J. Doe (jd@example.com)');
    expect(text[13]).toMatch(/Imported from leads-2026\.csv.*System/);
    expect(text[14]).toMatch(/Added by staff.*Maya Morgan/);
    expect(text[15]).toContain('Added by an import');
    expect(text[16]).toMatch(/Came in through the website form.*the lead/);
    expect(items[16]!.querySelector('blockquote')).toHaveTextContent('Duplex in Frederick.');

    const when = items[10]!.querySelector('time')!;
    expect(when).toHaveTextContent('11 hours ago');
    expect(when.getAttribute('dateTime')).toBe(ENTRIES[10]!.at);
    expect(when.getAttribute('title')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)$/);
  });

  it('marks a lead whose website booking staff cancelled as suspected abuse, in the header and on the timeline', async () => {
    const entry: TimelineEntry = {
      id: 'appt-abuse',
      kind: 'appointment',
      at: ago(HOUR),
      actor: ME.display_name,
      action: 'cancelled',
      appointment_id: 'a9',
      type: 'Call',
      date: '2026-11-27',
      time: '10:00',
      from_date: null,
      from_time: null,
      by: 'staff',
      booked_as: null,
      reason: 'suspected_abuse',
    };
    serve({ detail: { ...lead, suspected_abuse_at: ago(HOUR) }, entries: [entry] });
    renderPage();
    const header = (await screen.findByRole('heading', { level: 1, name: 'Jane Doe' })).closest('header')!;
    expect(within(header).getByText('Booking cancelled as suspected abuse')).toBeInTheDocument();
    const [item] = within(await waitFor(timeline)).getAllByRole('listitem');
    expect(item).toHaveTextContent(/Booking cancelled as suspected abuse: Call on Nov 27, 10:00 AM.*Maya Morgan/);
  });

  it('shows no mark on a lead staff never marked', async () => {
    serve();
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Jane Doe' });
    expect(screen.queryByText(/suspected abuse/)).not.toBeInTheDocument();
  });

  it('shows older entries on "Show older", asking for those before the last one shown', async () => {
    const { calls } = serve({ hasMore: true });
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Show older' }));
    expect(await within(timeline()).findByText('Imported from older.csv')).toBeInTheDocument();
    expect(calls.some((c) => c.path.includes(`before=${encodeURIComponent(ENTRIES.at(-1)!.at)}`))).toBe(true);
    expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
  });

  it('renders notes as text with safe links: http(s) only, new tab without opener, no HTML', async () => {
    serve();
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Jane Doe' });
    const mine = await screen.findByRole('article', { name: `Note by ${ME.display_name}` });
    const link = within(mine).getByRole('link', { name: 'https://docs.test/a' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(mine).getAllByRole('link')).toHaveLength(1); // javascript:alert(1) stays text
    expect(mine).toHaveTextContent('javascript:alert(1)');
    expect(mine.querySelector('p.whitespace-pre-wrap')?.textContent).toContain('line one\nline two');
    const theirs = screen.getByRole('article', { name: `Note by ${OTHER.display_name}` });
    expect(theirs).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(theirs.querySelector('img')).toBeNull();
  });

  it('changes the status in place: PATCH of the status alone, a toast, the badge follows', async () => {
    const { calls } = serve();
    const user = userEvent.setup({ delay: null });
    renderPage();
    const select = await screen.findByRole('combobox', { name: 'Status' });
    expect(select).toHaveValue('New');
    await user.selectOptions(select, 'Converted');
    expect(await screen.findByText('Status changed to Converted.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ status: 'Converted' }]);
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('Converted');
  });

  it('offers the admins and Nobody as owners, and "Assign to me" while the owner is someone else', async () => {
    const { calls } = serve();
    const user = userEvent.setup({ delay: null });
    renderPage();
    const owner = await screen.findByRole('combobox', { name: 'Owner' });
    // Owners by name, never by email.
    await waitFor(() =>
      expect(
        within(owner)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Nobody', `${ME.display_name} (you)`, OTHER.display_name]),
    );
    expect(owner).toHaveValue(OTHER.id);
    await user.click(screen.getByRole('button', { name: 'Assign to me' }));
    expect(await screen.findByText('Lead assigned to you.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ owner_id: ME.id }]);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Owner' })).toHaveValue(ME.id));
    expect(screen.queryByRole('button', { name: 'Assign to me' })).not.toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Owner' }), 'Nobody');
    expect(await screen.findByText('Lead unassigned.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ owner_id: null });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Owner' }), OTHER.display_name);
    expect(await screen.findByText(`Lead assigned to ${OTHER.display_name}.`)).toBeInTheDocument();
  });

  it('adds a note: the text as typed (a long one too), then the field empties', async () => {
    const long = `${'Minutes of the call. '.repeat(600)}end`; // 12,603 characters
    const added: unknown[] = [];
    serve({
      handle: ({ method, path, body }) => {
        if (method !== 'POST' || path !== `/api/leads/${lead.id}/notes`) return undefined;
        added.push(body);
        return { status: 201, body: note({ body: (body as { body: string }).body }) };
      },
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    const field = await screen.findByRole('textbox', { name: 'New note' });
    expect(Number(field.getAttribute('maxLength'))).toBeGreaterThanOrEqual(10_000);
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Note is required')).toBeInTheDocument();

    await user.click(field);
    await user.paste(long);
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Note added.')).toBeInTheDocument();
    expect(added).toEqual([{ body: long }]);
    expect(field).toHaveValue('');
  });

  it('lets me edit and delete my own notes (delete asks first) and not anyone else’s', async () => {
    const mineId = '00000000-0000-4000-8000-000000000001';
    const { calls } = serve({
      handle: ({ method, path, body }) => {
        if (path !== `/api/leads/${lead.id}/notes/${mineId}`) return undefined;
        if (method === 'PATCH') return { body: note({ id: mineId, body: (body as { body: string }).body }) };
        if (method === 'DELETE') return { body: { id: mineId } };
        return undefined;
      },
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    const mine = await screen.findByRole('article', { name: `Note by ${ME.display_name}` });
    const theirs = screen.getByRole('article', { name: `Note by ${OTHER.display_name}` });
    expect(within(theirs).queryByRole('button')).not.toBeInTheDocument();

    await user.click(within(mine).getByRole('button', { name: 'Edit note' }));
    const editor = within(mine).getByRole('textbox', { name: 'Edit note' });
    await user.clear(editor);
    await user.type(editor, 'Called her back.');
    await user.click(within(mine).getByRole('button', { name: 'Save note' }));
    expect(await screen.findByText('Note updated.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ body: 'Called her back.' });

    await user.click(within(mine).getByRole('button', { name: 'Delete note' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Are you sure you want to delete this note? This action cannot be undone.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(mine).getByRole('button', { name: 'Delete note' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Note deleted.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/leads/${lead.id}/notes/${mineId}`]);
  });

  it('shows the server’s refusal when a note cannot be changed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    serve({
      handle: ({ method }) =>
        method === 'DELETE'
          ? { status: 403, body: { error: { code: 'forbidden', message: 'You can only change your own notes.' } } }
          : undefined,
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    const mine = await screen.findByRole('article', { name: `Note by ${ME.display_name}` });
    await user.click(within(mine).getByRole('button', { name: 'Delete note' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You can only change your own notes.');
  });

  it('sets, shows (overdue highlighted) and clears the next step', async () => {
    const { calls } = serve();
    const user = userEvent.setup({ delay: null });
    renderPage();
    const card = await screen.findByRole('region', { name: 'Next step' });
    expect(within(card).getByText('No next step set.')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Set next step' }));
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(within(card).getByText('Choose a date for the next step')).toBeInTheDocument();

    await user.type(within(card).getByLabelText('Follow up on'), '2020-01-02');
    expect(within(card).getByLabelText('What to do')).toHaveAttribute('maxLength', '200');
    await user.type(within(card).getByLabelText('What to do'), 'send the zoning report');
    await user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Next step saved.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { follow_up_on: '2020-01-02', follow_up_note: 'send the zoning report' },
    ]);
    const shown = await within(card).findByTestId('next-step');
    expect(shown).toHaveTextContent('Overdue: Follow up on Jan 2, 2020: send the zoning report');
    expect(shown).toHaveClass('bg-red-50');

    await user.click(within(card).getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('Next step cleared.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ follow_up_on: null, follow_up_note: null });
    expect(await within(card).findByText('No next step set.')).toBeInTheDocument();
  });

  it('marks a next step due today as today’s, not overdue', async () => {
    serve({ detail: { ...lead, follow_up_on: localDate(), follow_up_note: null } });
    renderPage();
    const shown = await screen.findByTestId('next-step');
    expect(shown).toHaveTextContent(/^Today: Follow up on [A-Z][a-z]{2} \d{1,2}$/);
    expect(shown).not.toHaveClass('bg-red-50');
  });

  it('edits the deal in dollars and sends only what changed, in cents', async () => {
    const { calls } = serve();
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Edit deal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit deal' });
    const fee = within(dialog).getByLabelText('Estimated fee (USD)');
    expect(fee).toHaveValue('12500');
    await user.clear(fee);
    await user.type(fee, 'lots');
    await user.click(within(dialog).getByRole('button', { name: 'Save deal' }));
    expect(within(dialog).getByText('Estimated fee must be an amount in dollars')).toBeInTheDocument();
    await user.clear(fee);
    await user.type(fee, '$14,250.50');
    await user.click(within(dialog).getByRole('button', { name: 'Save deal' }));
    expect(await screen.findByText('Lead updated successfully')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ estimated_fee_cents: 1_425_050 }]);
    expect(await within(screen.getByRole('region', { name: 'Details' })).findByText('$14,250.50')).toBeInTheDocument();
  });

  it('puts the server’s field errors under the deal’s inputs', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    serve({
      handle: ({ method }) =>
        method === 'PATCH'
          ? {
              status: 400,
              body: {
                error: {
                  code: 'validation_failed',
                  message: 'Invalid input',
                  fields: { estimated_fee_cents: 'Estimated fee must be at most $1,000,000,000' },
                },
              },
            }
          : undefined,
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Edit deal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit deal' });
    await user.clear(within(dialog).getByLabelText('Estimated fee (USD)'));
    await user.type(within(dialog).getByLabelText('Estimated fee (USD)'), '2000000000');
    await user.click(within(dialog).getByRole('button', { name: 'Save deal' }));
    expect(await within(dialog).findByText('Estimated fee must be at most $1,000,000,000')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Estimated fee (USD)')).toHaveAttribute('aria-invalid', 'true');
  });

  it('says "Lead not found." with a way back for an unknown or deleted lead', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const missing = '00000000-0000-4000-8000-00000000dead';
    serve({
      handle: ({ path }) =>
        path === `/api/leads/${missing}` ? { status: 404, body: { error: { code: 'not_found', message: 'Lead not found.' } } } : undefined,
    });
    const user = userEvent.setup({ delay: null });
    renderPage(missing);
    expect(await screen.findByRole('heading', { level: 1, name: 'Lead not found.' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Leads' }));
    expect(await screen.findByText('The leads list')).toBeInTheDocument();
  });

  it('deletes the lead after the confirmation and goes back to the leads', async () => {
    const { calls } = serve({
      handle: ({ method, path }) => (method === 'DELETE' && path === `/api/leads/${lead.id}` ? { body: { id: lead.id } } : undefined),
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Are you sure you want to delete this lead? This action cannot be undone.');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The leads list')).toBeInTheDocument();
    expect(screen.getByText('Lead deleted successfully')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('shows the customer’s message read-only in Edit Lead for a lead from the form', async () => {
    serve();
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Lead' });
    const message = await within(dialog).findByLabelText('Additional Information');
    expect(message).toHaveAttribute('readonly');
    expect(message).toHaveAccessibleDescription(/cannot be changed\. Add a note/);
  });

  it('opens the schedule dialog it is given with this lead', async () => {
    serve();
    const user = userEvent.setup({ delay: null });
    const Schedule = vi.fn(({ open, lead: chosen }: { open: boolean; lead: { id: string; full_name: string } }) =>
      open ? <p>Scheduling {chosen.full_name}</p> : null,
    );
    renderWithProviders(
      <AuthProvider>
        <Routes>
          <Route
            path="/dashboard/leads/:id"
            element={<LeadPage scheduleDialog={Schedule} moreActions={(l) => <button type="button">Merge {l.full_name}</button>} />}
          />
        </Routes>
      </AuthProvider>,
      { url: `/dashboard/leads/${lead.id}` },
    );
    await user.click(await screen.findByRole('button', { name: 'Schedule appointment' }));
    expect(screen.getByText('Scheduling Jane Doe')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Actions' })).getByRole('button', { name: 'Merge Jane Doe' })).toBeInTheDocument();
  });

  it('Send email: checks the fields, sends to the lead (or another address given), says so and closes', async () => {
    const sent: unknown[] = [];
    serve({
      handle: ({ method, path, body }) => {
        if (method !== 'POST' || path !== `/api/leads/${lead.id}/emails`) return undefined;
        sent.push(body);
        const message = body as { to?: string; subject: string };
        return {
          status: 201,
          body: {
            id: '00000000-0000-4000-8000-0000000000e1',
            to: message.to ?? lead.email,
            subject: message.subject,
            status: 'queued',
            error: null,
          },
        };
      },
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Send email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Email Jane Doe' });
    expect(within(dialog).getByLabelText('To')).toHaveValue('jane@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByLabelText('Subject')).toHaveAccessibleDescription('Subject is required');
    expect(within(dialog).getByLabelText('Message')).toHaveAccessibleDescription('Message is required');
    await user.clear(within(dialog).getByLabelText('To'));
    await user.type(within(dialog).getByLabelText('To'), 'nope');
    await user.type(within(dialog).getByLabelText('Subject'), 'Your report');
    await user.type(within(dialog).getByLabelText('Message'), 'Hi Jane,{enter}It is ready.');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByLabelText('To')).toHaveAccessibleDescription('Invalid email address');
    expect(sent).toEqual([]);
    await user.clear(within(dialog).getByLabelText('To'));
    await user.type(within(dialog).getByLabelText('To'), 'jane@work.example');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Email to jane@work.example is on its way')).toBeInTheDocument();
    expect(sent).toEqual([{ to: 'jane@work.example', subject: 'Your report', body: 'Hi Jane,\nIt is ready.' }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Email Jane Doe' })).not.toBeInTheDocument());
  });

  it('Do not email: ticking it saves the mark and turns Send email off, saying why', async () => {
    const api = serve();
    const user = userEvent.setup({ delay: null });
    renderPage();
    const box = await screen.findByRole('checkbox', { name: 'Do not email' });
    expect(box).not.toBeChecked();
    await user.click(box);
    expect(await screen.findByText('Marked Do not email', { selector: '[role="status"] *, [role="status"]' })).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ do_not_email: true }]);
    const button = screen.getByRole('button', { name: 'Send email' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Marked Do not email');
    expect(screen.getByRole('checkbox', { name: 'Do not email' })).toBeChecked();
  });

  it('moves the deal between stages from the Stage menu; a Lost stage asks why first, then sends both', async () => {
    const api = serve({
      handle: ({ method, path, body }) => {
        if (method !== 'PATCH' || path !== `/api/leads/${lead.id}`) return undefined;
        const patch = body as { stage_id: string; lost_reason?: string };
        const stage = FIXTURE_STAGES.find((s) => s.id === patch.stage_id)!;
        return {
          body: { ...lead, stage_id: stage.id, stage_name: stage.name, status: stage.status, lost_reason: patch.lost_reason ?? null },
        };
      },
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    const menu = await screen.findByRole('combobox', { name: 'Stage' });
    await waitFor(() => expect(menu).toBeEnabled());
    expect(within(menu).getByRole('group', { name: 'Contacted' })).toBeInTheDocument();
    await user.selectOptions(menu, 'Proposal sent');
    expect(await screen.findByText('Moved to Proposal sent.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ stage_id: FIXTURE_STAGES[2]!.id }]);

    await user.selectOptions(menu, 'Lost');
    const dialog = await screen.findByRole('dialog', { name: 'Why was Jane Doe’s deal lost?' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark lost' }));
    expect(within(dialog).getByText('Choose why the deal was lost')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'Price');
    await user.click(within(dialog).getByRole('button', { name: 'Mark lost' }));
    expect(await screen.findByText('Moved to Lost: Price.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ stage_id: FIXTURE_STAGES[5]!.id, lost_reason: 'Price' });
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
  });

  it('shows a conversation once, as its newest message; its earlier messages open below it a page at a time, each with Reply', async () => {
    const thread = '00000000-0000-4000-8000-0000000000f0';
    const ours = (n: number, at: string, subject: string, body: string): TimelineEntry => ({
      id: `email:${n}`,
      kind: 'email_out',
      at,
      actor: ME.display_name,
      email_id: `00000000-0000-4000-8000-00000000000${n}`,
      email_kind: 'lead-message',
      subject,
      to: 'jane@example.com',
      status: 'sent',
      error: null,
      thread_id: thread,
      thread_size: 3,
      thread_unread: 1,
      body,
    });
    const theirs: TimelineEntry = {
      id: 'email_in:2',
      kind: 'email_in',
      at: ago(2 * HOUR),
      actor: null,
      email_in_id: '00000000-0000-4000-8000-000000000012',
      thread_id: thread,
      thread_size: 3,
      thread_unread: 1,
      from: 'jane@example.com',
      from_name: 'Jane Doe',
      to: 'replies@keystone.test',
      cc: '',
      subject: 'Re: Your report',
      body: 'Thursday works.',
      truncated: false,
      sent_at: null,
      attachments: [],
      sender_verified: true,
      from_someone_else: false,
      unread: true,
      answers_email_id: '00000000-0000-4000-8000-000000000001',
    };
    const head = ours(3, ago(HOUR), 'Re: Your report', 'Thursday at 10 then.');
    const first = ours(1, ago(3 * HOUR), 'Your report', 'Here it is.');
    const api = serve({
      entries: [head, ...ENTRIES],
      handle: ({ path }) =>
        path.startsWith(`/api/leads/${lead.id}/threads/${thread}`)
          ? path.includes('before=')
            ? { body: { entries: [first], has_more: false } }
            : { body: { entries: [head, theirs], has_more: true } }
          : path.startsWith(`/api/leads/${lead.id}/replies/read`)
            ? { body: { marked: 1 } }
            : undefined,
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    const items = within(await waitFor(timeline)).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(`${ME.display_name} emailed: Re: Your report`);
    expect(items[0]).toHaveTextContent('Thursday at 10 then.');
    // The unread reply inside is marked read with the conversation shown: up to its newest message.
    await waitFor(() =>
      expect(api.calls.find((c) => c.path.includes('/replies/read'))?.path).toContain(`up_to=${encodeURIComponent(head.at)}`),
    );
    // It holds an unread reply: open from the start, so that reply is shown before it counts as read.
    const more = within(items[0]!).getByRole('button', { name: /^Hide earlier messages/ });
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(more).toHaveAccessibleName('Hide earlier messages of “Re: Your report”');
    const earlier = await within(items[0]!).findByRole('list', { name: 'Earlier messages in this conversation, newest first' });
    expect(within(earlier).getAllByRole('listitem')).toHaveLength(1);
    expect(earlier).toHaveTextContent('Jane Doe replied: Re: Your report');
    await user.click(within(items[0]!).getByRole('button', { name: 'Show older messages' }));
    await waitFor(() => expect(within(earlier).getAllByRole('listitem')).toHaveLength(2));
    expect(api.calls.find((c) => c.path.includes('before='))?.path).toContain(`before=${encodeURIComponent(theirs.id)}`);
    expect(within(earlier).getAllByRole('listitem')[1]).toHaveTextContent('Here it is.');
    // Reply on our first message: to whom it went, "Re:" its subject.
    await user.click(within(earlier).getByRole('button', { name: 'Reply to Your report, to jane@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reply to Jane Doe' });
    expect(within(dialog).getByLabelText('Subject')).toHaveValue('Re: Your report');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    await user.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(more).toHaveAccessibleName('Show 2 earlier messages (1 unread) of “Re: Your report”');
  });

  it('a message written here that failed shows the server’s reason and Send again; the product’s own mail shows the reason only', async () => {
    const written: TimelineEntry = {
      id: 'email:e2',
      kind: 'email_out',
      at: ago(HOUR),
      actor: ME.display_name,
      email_id: '00000000-0000-4000-8000-0000000000e2',
      email_kind: 'lead-message',
      subject: 'Your report',
      to: 'jane@example.com',
      status: 'failed',
      error: '550 5.1.1 Mailbox unavailable',
      thread_id: '00000000-0000-4000-8000-0000000000e2',
      thread_size: 1,
      thread_unread: 0,
      body: 'Here is your report.',
    };
    const api = serve({
      entries: [written, ...ENTRIES],
      handle: ({ method, path }) =>
        method === 'POST' && path === `/api/leads/${lead.id}/emails/${written.email_id}/retry`
          ? { body: { id: written.email_id } }
          : undefined,
    });
    const user = userEvent.setup({ delay: null });
    renderPage();
    const items = within(await waitFor(timeline)).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(`${ME.display_name} emailed: Your report`);
    expect(items[0]).toHaveTextContent('550 5.1.1 Mailbox unavailable');
    const product = items.find((li) => li.textContent?.includes('We received your request'))!;
    expect(product).toHaveTextContent('550 Mailbox unavailable');
    expect(within(product).queryByRole('button', { name: 'Send again' })).toBeNull();
    await user.click(within(items[0]!).getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('Email queued again')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST' && c.path.endsWith('/retry'))).toBe(true);
  });
});
