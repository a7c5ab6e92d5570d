// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Appointment } from '#shared/schemas/appointment';
import { toast } from '#client/components/ui/toast-store.ts';
import { mockApi, renderWithProviders, type ApiCall } from '#client/test/render-with-providers.tsx';
import { makeAppointment } from '#client/test/fixtures.ts';
import { AppointmentsPage, DELETE_CONFIRMATION } from './appointments-page.tsx';
import { PHONE_QUERY } from './calendar-views.ts';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** A screen as wide as a phone (below 640 px), or not, as the page's media query sees it. */
function screenIsPhone(phone: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query) =>
      ({
        matches: phone && query === PHONE_QUERY,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

const listBody = (appointments: Appointment[]) => ({ appointments, truncated: false, time_zone: 'America/New_York' });
const isList = (call: ApiCall) => call.method === 'GET' && call.path.startsWith('/api/appointments?');

function mockAppointments(
  appointments: Appointment[],
  rest: (call: ApiCall) => { status?: number; body: unknown } | undefined = () => undefined,
) {
  return mockApi((call) => (isList(call) ? { body: listBody(appointments) } : rest(call)));
}

const renderPage = (url = '/dashboard/appointments?date=2026-04-01') => renderWithProviders(<AppointmentsPage />, { url });
const currentUrl = () => screen.getByTestId('current-url').textContent;

describe('AppointmentsPage', () => {
  it('shows the Month by default on a wide screen, fetches only its grid, and moves by month in the URL', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockAppointments([makeAppointment({ date: '2026-04-02', time: '13:00', lead: null })]);
    // An older link's ?month= still opens that month.
    renderPage('/dashboard/appointments?month=2026-04');
    expect(screen.getByRole('heading', { level: 1, name: 'Appointments' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: 'View' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Month', 'Week', 'Agenda', 'List']);
    expect(screen.getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('heading', { level: 2, name: 'April 2026' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: '1:00 PM - Unknown' })).toBeInTheDocument();
    expect(calls.filter(isList).map((c) => c.path)).toEqual(['/api/appointments?from=2026-03-29&to=2026-05-02']);
    // The colours are explained, in words.
    expect(
      within(screen.getByRole('list', { name: 'Legend' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Call', 'Zoom', 'On-site', 'Cancelled']);
    expect(screen.getByText('Times are in America/New York time.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(screen.getByRole('heading', { level: 2, name: 'May 2026' })).toBeInTheDocument();
    await waitFor(() => expect(calls.filter(isList).at(-1)?.path).toBe('/api/appointments?from=2026-04-26&to=2026-06-06'));
    expect(currentUrl()).toBe('/dashboard/appointments?date=2026-05-01');
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(screen.getByRole('heading', { level: 2, name: 'March 2026' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(currentUrl()).toBe('/dashboard/appointments');
  });

  it('opens the Agenda by default on a phone: seven days from today, every lead named', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
    screenIsPhone(true);
    const { calls } = mockAppointments([
      makeAppointment({
        date: '2026-11-26',
        time: '09:00',
        type: 'Zoom',
        lead: { full_name: 'Christopher Montgomery-Whitfield', email: 'c@example.com', phone: '1' },
      }),
      makeAppointment({
        date: '2026-11-28',
        time: '14:30',
        duration_minutes: 45,
        status: 'cancelled',
        lead: { full_name: 'Ada Lovelace', email: 'a@example.com', phone: '1' },
      }),
    ]);
    renderPage('/dashboard/appointments');
    expect(screen.getByRole('button', { name: 'Agenda' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('heading', { level: 2, name: 'Nov 26 – Dec 2, 2026' })).toBeInTheDocument();
    const zoom = await screen.findByRole('button', { name: '9:00 AM - Christopher Montgomery-Whitfield, Zoom' });
    expect(calls.filter(isList).map((c) => c.path)).toEqual(['/api/appointments?from=2026-11-26&to=2026-12-02']);
    expect(zoom).toHaveTextContent('9:00 AM – 9:30 AMChristopher Montgomery-WhitfieldZoom');
    expect(screen.getByRole('button', { name: '2:30 PM - Ada Lovelace (cancelled), Call' })).toHaveTextContent('2:30 PM – 3:15 PM');
    const days = screen.getAllByRole('heading', { level: 3 });
    expect(days.map((h) => h.textContent)).toEqual([
      'Thursday, November 26Today',
      'Friday, November 27',
      'Saturday, November 28',
      'Sunday, November 29',
      'Monday, November 30',
      'Tuesday, December 1',
      'Wednesday, December 2',
    ]);
    expect(screen.getAllByText('No appointments')).toHaveLength(5);
    expect(screen.getByRole('listitem', { current: 'date' })).toHaveAttribute('data-date', '2026-11-26');
  });

  it('shows the Week of ?view=week&date=…, opens an appointment from the keyboard, and keeps the day when the view changes', async () => {
    const user = userEvent.setup({ delay: null });
    const appointment = makeAppointment({
      date: '2026-11-24',
      time: '10:00',
      type: 'On-site',
      lead: { full_name: 'Grace Hopper', email: 'grace@example.com', phone: '1' },
    });
    const { calls } = mockAppointments([appointment]);
    renderPage('/dashboard/appointments?view=week&date=2026-11-26');
    expect(screen.getByRole('button', { name: 'Week' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('heading', { level: 2, name: 'Nov 22 – 28, 2026' })).toBeInTheDocument();
    const entry = await screen.findByRole('button', { name: '10:00 AM - Grace Hopper, On-site' });
    expect(calls.filter(isList).map((c) => c.path)).toEqual(['/api/appointments?from=2026-11-22&to=2026-11-28']);
    expect(screen.getByRole('list', { name: 'Nov 22 – 28, 2026' }).children).toHaveLength(7);
    expect(entry.closest('[data-date]')).toHaveAttribute('data-date', '2026-11-24');

    entry.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Appointment Details' });
    expect(dialog).toHaveTextContent('November 24, 2026');
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Next week' }));
    expect(currentUrl()).toBe('/dashboard/appointments?view=week&date=2026-12-03');
    expect(screen.getByRole('heading', { level: 2, name: 'Nov 29 – Dec 5, 2026' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Month' }));
    expect(currentUrl()).toBe('/dashboard/appointments?view=month&date=2026-12-03');
    expect(screen.getByRole('heading', { level: 2, name: 'December 2026' })).toBeInTheDocument();
  });

  it('falls back to the defaults for a view or a date it does not know', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
    screenIsPhone(false);
    const { calls } = mockAppointments([]);
    renderPage('/dashboard/appointments?view=year&date=2026-02-30');
    expect(screen.getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('heading', { level: 2, name: 'November 2026' })).toBeInTheDocument();
    await waitFor(() => expect(calls.filter(isList).map((c) => c.path)).toEqual(['/api/appointments?from=2026-11-01&to=2026-12-05']));
  });

  it('lists the month ascending with lead, type badge and notes, and keeps the list view in the URL', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockAppointments([
      makeAppointment({
        date: '2026-04-03',
        time: '08:05',
        type: 'Zoom',
        notes: 'Bring the survey',
        lead: { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '1' },
      }),
      makeAppointment({ date: '2026-04-03', time: '15:30', type: 'On-site', lead: null }),
      makeAppointment({
        date: '2026-04-20',
        time: '10:00',
        type: 'Call',
        lead: { full_name: 'Grace Hopper', email: 'grace@example.com', phone: '2' },
      }),
    ]);
    const first = renderPage();
    await user.click(screen.getByRole('button', { name: 'List' }));
    expect(currentUrl()).toBe('/dashboard/appointments?date=2026-04-01&view=list');
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(calls.filter(isList).at(-1)?.path).toBe('/api/appointments?from=2026-04-01&to=2026-04-30');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Date & Time', 'Lead', 'Type', 'Notes', 'Actions']);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Apr 3, 20268:05 AM',
      'Apr 3, 20263:30 PM',
      'Apr 20, 202610:00 AM',
    ]);
    expect(rows[0]).toHaveTextContent('Ada Lovelace');
    expect(rows[0]).toHaveTextContent('ada@example.com');
    expect(within(rows[0]!).getByText('Zoom')).toHaveClass('bg-purple-100');
    expect(rows[0]).toHaveTextContent('Bring the survey');
    expect(rows[1]).toHaveTextContent('Unknown Lead');
    expect(within(rows[1]!).getByText('On-site')).toHaveClass('bg-green-100');
    expect(rows[1]).toHaveTextContent('No notes');
    expect(within(rows[2]!).getByText('Call')).toHaveClass('bg-blue-100');
    expect(within(rows[2]!).getByRole('button', { name: /^View Details/ })).toBeInTheDocument();
    expect(
      within(rows[2]!).getByRole('button', { name: 'Delete appointment with Grace Hopper on Apr 20, 2026 10:00 AM' }),
    ).toBeInTheDocument();
    // The list has its own badges in words: no legend.
    expect(screen.queryByRole('list', { name: 'Legend' })).not.toBeInTheDocument();

    first.unmount();
    renderPage('/dashboard/appointments?date=2026-04-01&view=list');
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows a spinner, then "No appointments scheduled" for an empty month', async () => {
    mockAppointments([]);
    renderPage('/dashboard/appointments?view=list&date=2026-04-01');
    expect(screen.getByRole('status')).toHaveTextContent('Loading appointments...');
    expect(await screen.findByText('No appointments scheduled')).toBeInTheDocument();
  });

  it('toasts "Failed to load appointments" when the list fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi(() => ({ status: 500, body: { error: { code: 'internal_error', message: 'x', requestId: 'r' } } }));
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load appointments');
  });

  it('opens the details with lead, date, time, type, notes and the .ics link, and deletes from there', async () => {
    const user = userEvent.setup({ delay: null });
    const appointment = makeAppointment({
      date: '2026-04-15',
      time: '16:45',
      type: 'Zoom',
      notes: 'Gate code 1234',
      lead: { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '(301) 555-0142' },
    });
    const { calls } = mockAppointments([appointment], (call) => (call.method === 'DELETE' ? { body: { id: appointment.id } } : undefined));
    renderPage();
    await user.click(await screen.findByRole('button', { name: '4:45 PM - Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appointment Details' });
    for (const text of ['Ada Lovelace', 'ada@example.com', '(301) 555-0142', 'April 15, 2026', '4:45 PM', 'Gate code 1234'])
      expect(dialog).toHaveTextContent(text);
    expect(within(dialog).getByText('Zoom')).toHaveClass('bg-purple-100');
    expect(within(dialog).getByRole('link', { name: 'Add to calendar (.ics)' })).toHaveAttribute(
      'href',
      `/api/appointments/${appointment.id}/ics`,
    );

    await user.click(within(dialog).getByRole('button', { name: 'Delete appointment' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent(DELETE_CONFIRMATION);
    expect(DELETE_CONFIRMATION).toBe('Are you sure you want to delete this appointment? This action cannot be undone.');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Appointment deleted successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(`/api/appointments/${appointment.id}`);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Appointment Details' })).not.toBeInTheDocument());
  });

  it('deletes from the list, and toasts "Failed to delete appointment" when that fails', async () => {
    const user = userEvent.setup({ delay: null });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const appointment = makeAppointment({ lead: { full_name: 'Grace Hopper', email: 'g@example.com', phone: '1' } });
    mockAppointments([appointment], (call) =>
      call.method === 'DELETE' ? { status: 404, body: { error: { code: 'not_found', message: 'gone', requestId: 'r' } } } : undefined,
    );
    renderPage('/dashboard/appointments?view=list&date=2026-04-15');
    await user.click(await screen.findByRole('button', { name: /^Delete appointment with Grace Hopper/ }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(DELETE_CONFIRMATION);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete appointment');
  });
});
