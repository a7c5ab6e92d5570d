// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '#client/test/happy-dom-shims.ts';
import { toast } from '#client/components/ui/toast-store.ts';
import { makeLead } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders, type ApiCall } from '#client/test/render-with-providers.tsx';
import { ScheduleAppointmentDialog } from './schedule-appointment-dialog.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ada = makeLead({ full_name: 'Ada Lovelace', email: 'ada@example.com' });
const alan = makeLead({ full_name: 'Alan Turing', email: 'alan@example.com' });
const grace = makeLead({ full_name: 'Grace Hopper', email: 'grace@example.com' });

/** The lead search answers by the search text; everything else by `rest`. */
function mockLeadsApi(rest: (call: ApiCall) => { status?: number; body: unknown } | undefined = () => undefined) {
  return mockApi((call) => {
    if (call.method === 'GET' && call.path.startsWith('/api/leads?')) {
      const search = new URL(call.path, 'http://x').searchParams.get('search')?.toLowerCase() ?? '';
      const leads = [ada, alan, grace].filter((l) => l.full_name.toLowerCase().includes(search));
      return { body: { leads, total: leads.length, page: 1, page_size: 10 } };
    }
    return rest(call);
  });
}

const leadOptions = () => within(screen.getByRole('listbox', { name: 'Leads' })).getAllByRole('option');

function renderDialog() {
  const onOpenChange = vi.fn();
  renderWithProviders(<ScheduleAppointmentDialog open onOpenChange={onOpenChange} />);
  return { onOpenChange, dialog: screen.getByRole('dialog', { name: 'Schedule Appointment' }) };
}

async function pickLead(user: ReturnType<typeof userEvent.setup>, text: string, downs: number) {
  const combobox = screen.getByRole('combobox', { name: 'Lead' });
  await user.type(combobox, text);
  await waitFor(() => expect(leadOptions()).toHaveLength(text === 'ace' ? 2 : 1));
  for (let i = 0; i < downs; i++) await user.keyboard('{ArrowDown}');
  await user.keyboard('{Enter}');
  return combobox;
}

describe('ScheduleAppointmentDialog', () => {
  it('shows the four validation messages under their fields with red borders, and sends nothing', async () => {
    const user = userEvent.setup();
    const { calls } = mockLeadsApi();
    const { dialog } = renderDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Schedule Appointment' }));
    expect(await within(dialog).findByText('Please select a lead')).toBeInTheDocument();
    expect(within(dialog).getByText('Date is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Time is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Appointment type is required')).toBeInTheDocument();
    for (const name of ['Lead', 'Date', 'Time', 'Type']) {
      const field = within(dialog).getByLabelText(name);
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveClass('border-red-500');
    }
    expect(within(dialog).getByLabelText('Notes')).not.toHaveAttribute('aria-invalid');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('searches leads on the server and picks one with the arrow keys and Enter', async () => {
    const user = userEvent.setup();
    const { calls } = mockLeadsApi();
    renderDialog();
    const combobox = screen.getByRole('combobox', { name: 'Lead' });
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    await user.type(combobox, 'ace');
    expect(combobox).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(leadOptions()).toHaveLength(2));
    expect(calls.some((c) => c.path === '/api/leads?page_size=10&search=ace')).toBe(true);
    // Debounced: no request for the single letter typed before it.
    expect(calls.some((c) => c.path.endsWith('search=a') || c.path.endsWith('search=ac'))).toBe(false);
    const listbox = screen.getByRole('listbox');
    expect(combobox).toHaveAttribute('aria-controls', listbox.id);
    expect(within(listbox).getByRole('option', { name: /Grace Hopper/ })).toHaveTextContent('grace@example.com');

    await user.keyboard('{ArrowDown}');
    const first = leadOptions()[0]!;
    expect(combobox).toHaveAttribute('aria-activedescendant', first.id);
    expect(first).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    const second = leadOptions()[1]!;
    expect(combobox).toHaveAttribute('aria-activedescendant', second.id);
    await user.keyboard('{ArrowDown}'); // wraps to the first
    await user.keyboard('{ArrowUp}'); // and back to the last
    expect(second).toHaveTextContent('Grace Hopper');
    await user.keyboard('{Enter}');
    expect(combobox).toHaveValue('Grace Hopper');
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    expect(combobox).not.toHaveAttribute('aria-activedescendant');
    expect(screen.getByText('Selected: Grace Hopper (grace@example.com)')).toBeInTheDocument();
  });

  it('starts with the lead it is given chosen (the lead page), and sends that lead', async () => {
    const user = userEvent.setup();
    const { calls } = mockLeadsApi((call) =>
      call.method === 'POST' && call.path === '/api/appointments' ? { status: 201, body: { id: 'x' } } : undefined,
    );
    renderWithProviders(<ScheduleAppointmentDialog open onOpenChange={vi.fn()} lead={alan} />);
    const dialog = screen.getByRole('dialog', { name: 'Schedule Appointment' });
    expect(within(dialog).getByRole('combobox', { name: 'Lead' })).toHaveValue('Alan Turing');
    expect(within(dialog).getByText('Selected: Alan Turing (alan@example.com)')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2026-04-15' } });
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '14:30' } });
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Call');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule Appointment' }));
    expect(await screen.findByText('Appointment scheduled successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      lead_id: alan.id,
      date: '2026-04-15',
      time: '14:30',
      type: 'Call',
    });
  });

  it('closes the list on Escape and keeps the dialog open', async () => {
    const user = userEvent.setup();
    mockLeadsApi();
    const { onOpenChange } = renderDialog();
    const combobox = screen.getByRole('combobox', { name: 'Lead' });
    await user.type(combobox, 'Grace');
    await waitFor(() => expect(leadOptions()).toHaveLength(1));
    await user.keyboard('{Escape}');
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Schedule Appointment' })).toBeInTheDocument();
  });

  it('schedules the appointment, toasts success and closes', async () => {
    const user = userEvent.setup();
    let release: () => void = () => {};
    const { calls } = mockLeadsApi((call) =>
      call.method === 'POST' && call.path === '/api/appointments' ? { status: 201, body: { id: 'x' } } : undefined,
    );
    const { onOpenChange, dialog } = renderDialog();
    await pickLead(user, 'Grace', 1);
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2026-04-15' } });
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '14:30' } });
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Zoom');
    await user.type(within(dialog).getByLabelText('Notes'), 'Walk-through');
    const held = new Promise<void>((resolve) => (release = resolve));
    const fetchMock = vi.mocked(fetch);
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (...args) => {
      if (args[1]?.method === 'POST') await held;
      return answer(...args);
    });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule Appointment' }));
    expect(await within(dialog).findByRole('button', { name: 'Scheduling...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Appointment scheduled successfully')).toBeInTheDocument();
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      lead_id: grace.id,
      date: '2026-04-15',
      time: '14:30',
      type: 'Zoom',
      notes: 'Walk-through',
      duration_minutes: 30,
      location: '',
    });
  });

  it('lists the appointments a time overlaps and schedules anyway when asked', async () => {
    const user = userEvent.setup();
    const conflict = { id: 'c1', date: '2026-04-15', time: '10:00', type: 'Call', lead_name: 'Booked Visitor' };
    const { calls } = mockLeadsApi((call) => {
      if (call.method !== 'POST' || call.path !== '/api/appointments') return undefined;
      return (call.body as { allow_overlap?: boolean }).allow_overlap
        ? { status: 201, body: { id: 'x' } }
        : {
            status: 409,
            body: {
              error: { code: 'conflict', message: 'This time overlaps another appointment.', requestId: 'r', conflicts: [conflict] },
            },
          };
    });
    const { onOpenChange, dialog } = renderDialog();
    await pickLead(user, 'Grace', 1);
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2026-04-15' } });
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '10:15' } });
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Call');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule Appointment' }));
    const warning = await within(dialog).findByRole('alert');
    expect(warning).toHaveTextContent('This time overlaps another appointment.');
    expect(warning).toHaveTextContent('2026-04-15 at 10:00 AM: Call with Booked Visitor');
    expect(onOpenChange).not.toHaveBeenCalled();
    await user.click(within(warning).getByRole('button', { name: 'Schedule anyway' }));
    expect(await screen.findByText('Appointment scheduled successfully')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => (c.body as { allow_overlap?: boolean }).allow_overlap)).toEqual([
      undefined,
      true,
    ]);
  });

  it('shows the server field error under Lead when the lead no longer exists (422)', async () => {
    const user = userEvent.setup();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockLeadsApi((call) =>
      call.method === 'POST'
        ? {
            status: 422,
            body: {
              error: {
                code: 'unprocessable',
                message: 'That lead does not exist.',
                requestId: 'r',
                fields: { lead_id: 'Please select a lead' },
              },
            },
          }
        : undefined,
    );
    const { onOpenChange, dialog } = renderDialog();
    await pickLead(user, 'Ada', 1);
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2026-04-15' } });
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '09:00' } });
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Call');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule Appointment' }));
    expect(await screen.findByText('Failed to schedule appointment')).toBeInTheDocument();
    expect(within(dialog).getByText('Please select a lead')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Lead' })).toHaveAttribute('aria-invalid', 'true');
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalled();
  });
});
