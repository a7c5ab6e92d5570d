// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Appointment } from '#shared/schemas/appointment';
import { toast } from '#client/components/ui/toast-store.ts';
import { mockApi, renderWithProviders, type ApiCall } from '#client/test/render-with-providers.tsx';
import { AppointmentsPage, DELETE_CONFIRMATION } from './appointments-page.tsx';
import { VIEW_STORAGE_KEY } from './use-appointments-view.ts';

beforeEach(() => window.localStorage.clear());
afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

let counter = 0;
function makeAppointment(overrides: Partial<Appointment> = {}): Appointment {
  counter += 1;
  return {
    id: `20000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    lead_id: '00000000-0000-4000-8000-000000000001',
    date: '2026-04-15',
    time: '09:00',
    type: 'Call',
    notes: null,
    duration_minutes: 30, location: null, status: 'scheduled' as const, cancelled_by: null, source: 'staff' as const, booked_as: null,
    lead: { full_name: `Lead ${counter}`, email: `lead${counter}@example.com`, phone: '(301) 555-0100' },
    ...overrides,
  };
}

const listBody = (appointments: Appointment[]) => ({ appointments, truncated: false, time_zone: 'America/New_York' });
const isList = (call: ApiCall) => call.method === 'GET' && call.path.startsWith('/api/appointments?');

function mockAppointments(appointments: Appointment[], rest: (call: ApiCall) => { status?: number; body: unknown } | undefined = () => undefined) {
  return mockApi((call) => (isList(call) ? { body: listBody(appointments) } : rest(call)));
}

const renderPage = (url = '/dashboard/appointments?month=2026-04') => renderWithProviders(<AppointmentsPage />, { url });

describe('AppointmentsPage', () => {
  it('shows the calendar by default and fetches only the visible grid, then the next month', async () => {
    const user = userEvent.setup();
    const { calls } = mockAppointments([makeAppointment({ date: '2026-04-02', time: '13:00', lead: null })]);
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Appointments' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Calendar' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('heading', { level: 2, name: 'April 2026' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: '1:00 PM - Unknown' })).toBeInTheDocument();
    expect(calls.filter(isList).map((c) => c.path)).toEqual(['/api/appointments?from=2026-03-29&to=2026-05-02']);

    await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(screen.getByRole('heading', { level: 2, name: 'May 2026' })).toBeInTheDocument();
    await waitFor(() => expect(calls.filter(isList).at(-1)?.path).toBe('/api/appointments?from=2026-04-26&to=2026-06-06'));
    expect(screen.getByTestId('current-url')).toHaveTextContent('month=2026-05');
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(screen.getByRole('heading', { level: 2, name: 'March 2026' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(screen.getByTestId('current-url')).toHaveTextContent(/^\/dashboard\/appointments$/);
  });

  it('lists the month ascending with lead, type badge and notes, and remembers the list view', async () => {
    const user = userEvent.setup();
    const { calls } = mockAppointments([
      makeAppointment({ date: '2026-04-03', time: '08:05', type: 'Zoom', notes: 'Bring the survey', lead: { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '1' } }),
      makeAppointment({ date: '2026-04-03', time: '15:30', type: 'On-site', lead: null }),
      makeAppointment({ date: '2026-04-20', time: '10:00', type: 'Call', lead: { full_name: 'Grace Hopper', email: 'grace@example.com', phone: '2' } }),
    ]);
    const first = renderPage();
    await user.click(screen.getByRole('button', { name: 'List' }));
    expect(window.localStorage.getItem(VIEW_STORAGE_KEY)).toBe('list');
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(calls.filter(isList).at(-1)?.path).toBe('/api/appointments?from=2026-04-01&to=2026-04-30');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Date & Time', 'Lead', 'Type', 'Notes', 'Actions']);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual(['Apr 3, 20268:05 AM', 'Apr 3, 20263:30 PM', 'Apr 20, 202610:00 AM']);
    expect(rows[0]).toHaveTextContent('Ada Lovelace');
    expect(rows[0]).toHaveTextContent('ada@example.com');
    expect(within(rows[0]!).getByText('Zoom')).toHaveClass('bg-purple-100');
    expect(rows[0]).toHaveTextContent('Bring the survey');
    expect(rows[1]).toHaveTextContent('Unknown Lead');
    expect(within(rows[1]!).getByText('On-site')).toHaveClass('bg-green-100');
    expect(rows[1]).toHaveTextContent('No notes');
    expect(within(rows[2]!).getByText('Call')).toHaveClass('bg-blue-100');
    expect(within(rows[2]!).getByRole('button', { name: /^View Details/ })).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('button', { name: 'Delete appointment with Grace Hopper on Apr 20, 2026 10:00 AM' })).toBeInTheDocument();

    first.unmount();
    renderPage();
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows a spinner, then "No appointments scheduled" for an empty month', async () => {
    window.localStorage.setItem(VIEW_STORAGE_KEY, 'list');
    mockAppointments([]);
    renderPage();
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
    const user = userEvent.setup();
    const appointment = makeAppointment({ date: '2026-04-15', time: '16:45', type: 'Zoom', notes: 'Gate code 1234', lead: { full_name: 'Ada Lovelace', email: 'ada@example.com', phone: '(301) 555-0142' } });
    const { calls } = mockAppointments([appointment], (call) => (call.method === 'DELETE' ? { body: { id: appointment.id } } : undefined));
    renderPage();
    await user.click(await screen.findByRole('button', { name: '4:45 PM - Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appointment Details' });
    for (const text of ['Ada Lovelace', 'ada@example.com', '(301) 555-0142', 'April 15, 2026', '4:45 PM', 'Gate code 1234']) expect(dialog).toHaveTextContent(text);
    expect(within(dialog).getByText('Zoom')).toHaveClass('bg-purple-100');
    expect(within(dialog).getByRole('link', { name: 'Add to calendar (.ics)' })).toHaveAttribute('href', `/api/appointments/${appointment.id}/ics`);

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
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    window.localStorage.setItem(VIEW_STORAGE_KEY, 'list');
    const appointment = makeAppointment({ lead: { full_name: 'Grace Hopper', email: 'g@example.com', phone: '1' } });
    mockAppointments([appointment], (call) => (call.method === 'DELETE' ? { status: 404, body: { error: { code: 'not_found', message: 'gone', requestId: 'r' } } } : undefined));
    renderPage();
    await user.click(await screen.findByRole('button', { name: /^Delete appointment with Grace Hopper/ }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(DELETE_CONFIRMATION);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete appointment');
  });
});
