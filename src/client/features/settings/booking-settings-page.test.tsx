// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BOOKING_SETTINGS, type BookingSettings } from '#shared/schemas/booking';
import { getToasts, toast } from '#client/components/ui/toast-store.ts';
import { mockApi, renderWithProviders, type ApiCall } from '#client/test/render-with-providers.tsx';
import { BookingSettingsPage } from './booking-settings-page.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const stored = (over: Partial<BookingSettings & { email_on: boolean }> = {}) => ({
  ...DEFAULT_BOOKING_SETTINGS,
  days_off: ['2026-12-25'],
  time_zone: 'America/New_York',
  email_on: true,
  ...over,
});

/** GET answers `settings`; PUT answers `save(body)`, or echoes the body as saved. */
function serve(settings = stored(), save?: (call: ApiCall) => { status?: number; body: unknown }) {
  return mockApi((call) => {
    if (call.path !== '/api/booking-settings') return undefined;
    if (call.method === 'GET') return { body: settings };
    if (call.method === 'PUT')
      return save
        ? save(call)
        : { body: { ...(call.body as BookingSettings), time_zone: settings.time_zone, email_on: settings.email_on } };
    return undefined;
  });
}

const puts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'PUT');

async function renderPage() {
  renderWithProviders(<BookingSettingsPage />, { url: '/dashboard/settings/booking' });
  await screen.findByRole('heading', { level: 2, name: 'Booking' });
}

describe('BookingSettingsPage', () => {
  it('shows the loaded settings: time zone, switch, the week, the numbers, the types and the days off', async () => {
    serve(
      stored({
        hours: [{ start: '08:30', end: '16:00' }, null, null, null, null, null, { start: '10:00', end: '12:00' }],
        types: ['Zoom'],
        days_off: ['2027-01-01', '2026-12-25'],
      }),
    );
    renderWithProviders(<BookingSettingsPage />, { url: '/dashboard/settings/booking' });
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading booking settings...');

    expect(await screen.findByRole('heading', { level: 2, name: 'Booking' })).toBeInTheDocument();
    expect(screen.getByText(/All times are in the business time zone/)).toHaveTextContent(
      'All times are in the business time zone, America/New_York.',
    );
    expect(screen.getByRole('switch', { name: 'Let visitors book a call' })).toBeChecked();
    expect(screen.getByRole('link', { name: 'Booking' })).toHaveAttribute('aria-current', 'page');

    const rows = within(screen.getByRole('table', { name: 'Opening hours' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(WEEKDAYS);
    expect(screen.getByRole('checkbox', { name: 'Open on Monday' })).toBeChecked();
    expect(screen.getByLabelText('Monday opening time')).toHaveValue('08:30');
    expect(screen.getByLabelText('Monday closing time')).toHaveValue('16:00');
    expect(screen.getByRole('checkbox', { name: 'Open on Tuesday' })).not.toBeChecked();
    expect(screen.getByLabelText('Tuesday opening time')).toBeDisabled();
    expect(screen.getByLabelText('Tuesday closing time')).toBeDisabled();
    expect(screen.getByLabelText('Sunday opening time')).toHaveValue('10:00');
    expect(screen.getByLabelText('Sunday opening time')).toBeEnabled();

    expect(screen.getByLabelText('Slot length (minutes)')).toHaveValue(30);
    expect(screen.getByLabelText('Buffer between appointments (minutes)')).toHaveValue(0);
    expect(screen.getByLabelText('Minimum notice (hours)')).toHaveValue(4);
    expect(screen.getByLabelText('How far ahead (days)')).toHaveValue(30);
    const types = screen.getByRole('group', { name: 'Visitors may choose' });
    expect(within(types).getByRole('checkbox', { name: 'Call' })).not.toBeChecked();
    expect(within(types).getByRole('checkbox', { name: 'Zoom' })).toBeChecked();

    const days = within(screen.getByRole('list', { name: 'Days off' })).getAllByRole('listitem');
    expect(days.map((d) => d.textContent)).toEqual(['Dec 25, 2026Remove', 'Jan 1, 2027Remove']);
    expect(screen.getByRole('button', { name: 'Remove Dec 25, 2026' })).toBeInTheDocument();
  });

  it('turns "Always require email confirmation" on and saves it', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    await renderPage();
    const confirmSwitch = screen.getByRole('switch', { name: 'Always require email confirmation' });
    expect(confirmSwitch).not.toBeChecked();
    expect(confirmSwitch).toBeEnabled();
    expect(confirmSwitch).toHaveAccessibleDescription(/Each website booking waits until the visitor clicks the link we email them/);
    await user.click(confirmSwitch);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toMatchObject({ require_email_confirmation: true });
    expect(await screen.findByText('Booking settings saved')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Always require email confirmation' })).toBeChecked();
  });

  it('disables the switch while email is off and says why (a switch left on is saved off)', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve(stored({ email_on: false, require_email_confirmation: true }));
    await renderPage();
    const confirmSwitch = screen.getByRole('switch', { name: 'Always require email confirmation' });
    expect(confirmSwitch).toBeDisabled();
    expect(confirmSwitch).not.toBeChecked();
    expect(confirmSwitch).toHaveAccessibleDescription(
      'Email is off on this server, so no confirmation link could be sent. Set up email (SMTP_URL) to turn this on.',
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toMatchObject({ require_email_confirmation: false });
  });

  it('says so when the settings cannot be loaded', async () => {
    mockApi(() => ({ status: 500, body: { error: { code: 'internal_error', message: 'Boom' } } }));
    renderWithProviders(<BookingSettingsPage />, { url: '/dashboard/settings/booking' });
    expect(await screen.findByText('The booking settings could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('saves every change in one PUT, toasts, and keeps the values', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    await renderPage();

    await user.click(screen.getByRole('switch', { name: 'Let visitors book a call' }));
    await user.click(screen.getByRole('checkbox', { name: 'Open on Saturday' }));
    fireEvent.change(screen.getByLabelText('Saturday opening time'), { target: { value: '10:00' } });
    fireEvent.change(screen.getByLabelText('Saturday closing time'), { target: { value: '14:00' } });
    await user.click(screen.getByRole('checkbox', { name: 'Open on Friday' }));
    await user.clear(screen.getByLabelText('Slot length (minutes)'));
    await user.type(screen.getByLabelText('Slot length (minutes)'), '45');
    await user.clear(screen.getByLabelText('Buffer between appointments (minutes)'));
    await user.type(screen.getByLabelText('Buffer between appointments (minutes)'), '15');
    await user.clear(screen.getByLabelText('Minimum notice (hours)'));
    await user.type(screen.getByLabelText('Minimum notice (hours)'), '24');
    await user.clear(screen.getByLabelText('How far ahead (days)'));
    await user.type(screen.getByLabelText('How far ahead (days)'), '60');
    await user.click(screen.getByRole('checkbox', { name: 'Call' }));
    fireEvent.change(screen.getByLabelText('Day off'), { target: { value: '2026-07-04' } });
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByLabelText('Day off')).toHaveValue('');
    await user.click(screen.getByRole('switch', { name: 'Visitors may choose who their call is with' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(getToasts()).toEqual([expect.objectContaining({ kind: 'success', message: 'Booking settings saved' })]));
    expect(await screen.findByText('Booking settings saved')).toBeInTheDocument();
    const nine = { start: '09:00', end: '17:00' };
    expect(puts(calls).map((c) => c.body)).toEqual([
      {
        enabled: false,
        hours: [nine, nine, nine, nine, null, { start: '10:00', end: '14:00' }, null],
        slot_minutes: 45,
        buffer_minutes: 15,
        min_notice_hours: 24,
        horizon_days: 60,
        types: ['Zoom'],
        days_off: ['2026-07-04', '2026-12-25'],
        require_email_confirmation: false,
        website_hosts: 'everyone',
        website_host_ids: [],
        visitors_choose_host: true,
        jitsi_links: false,
      },
    ]);
    // The form keeps what was saved.
    expect(screen.getByRole('switch', { name: 'Let visitors book a call' })).not.toBeChecked();
    expect(screen.getByLabelText('Saturday opening time')).toHaveValue('10:00');
    expect(screen.getByLabelText('Slot length (minutes)')).toHaveValue(45);
    expect(screen.getByRole('checkbox', { name: 'Call' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Remove Jul 4, 2026' })).toBeInTheDocument();
  });

  it("checks in the browser with the schema's messages, focuses the first, and sends nothing", async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve();
    await renderPage();

    fireEvent.change(screen.getByLabelText('Wednesday opening time'), { target: { value: '17:00' } });
    fireEvent.change(screen.getByLabelText('Wednesday closing time'), { target: { value: '09:00' } });
    await user.click(screen.getByRole('checkbox', { name: 'Call' }));
    await user.click(screen.getByRole('checkbox', { name: 'Zoom' }));
    await user.clear(screen.getByLabelText('Slot length (minutes)'));
    await user.type(screen.getByLabelText('Slot length (minutes)'), '5');
    await user.clear(screen.getByLabelText('Buffer between appointments (minutes)'));
    await user.type(screen.getByLabelText('Minimum notice (hours)'), '.5');
    await user.clear(screen.getByLabelText('How far ahead (days)'));
    await user.type(screen.getByLabelText('How far ahead (days)'), '400');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const closing = screen.getByLabelText('Wednesday closing time');
    expect(await screen.findByText('Closing time must be after opening time')).toBeInTheDocument();
    expect(closing).toHaveAttribute('aria-invalid', 'true');
    expect(closing).toHaveAccessibleDescription('Closing time must be after opening time');
    expect(closing).toHaveClass('border-red-500');
    expect(closing).toHaveFocus();
    expect(screen.getByLabelText('Wednesday opening time')).not.toHaveAttribute('aria-invalid');

    expect(screen.getByLabelText('Slot length (minutes)')).toHaveAccessibleDescription('Slot length must be at least 10');
    expect(screen.getByLabelText('Buffer between appointments (minutes)')).toHaveAccessibleDescription('Buffer is required');
    expect(screen.getByLabelText('Minimum notice (hours)')).toHaveAccessibleDescription('Minimum notice must be a whole number');
    expect(screen.getByLabelText('How far ahead (days)')).toHaveAccessibleDescription('Booking window must be at most 365');
    expect(screen.getByRole('checkbox', { name: 'Call' })).toHaveAccessibleDescription('Choose at least one appointment type');
    expect(puts(calls)).toHaveLength(0);
    expect(getToasts()).toEqual([]);

    // Putting a field right takes its message away.
    fireEvent.change(closing, { target: { value: '18:00' } });
    expect(screen.queryByText('Closing time must be after opening time')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Zoom' }));
    expect(screen.queryByText('Choose at least one appointment type')).not.toBeInTheDocument();
  });

  it("shows the server's field messages and an error toast when the save is refused", async () => {
    const user = userEvent.setup({ delay: null });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls } = serve(undefined, () => ({
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'Some fields are not valid.',
          fields: { hours: 'Give the hours of all seven weekdays', types: 'Choose Call or Zoom' },
        },
      },
    }));
    await renderPage();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Give the hours of all seven weekdays')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Opening hours' })).toHaveAccessibleDescription('Give the hours of all seven weekdays');
    expect(screen.getByRole('checkbox', { name: 'Call' })).toHaveAccessibleDescription('Choose Call or Zoom');
    expect(screen.getByRole('checkbox', { name: 'Call' })).toHaveFocus();
    await waitFor(() =>
      expect(getToasts()).toEqual([expect.objectContaining({ kind: 'error', message: 'Failed to save booking settings' })]),
    );
    expect(puts(calls)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(logged).toHaveBeenCalledWith('Saving the booking settings failed', expect.any(Error));
  });

  it('adds days off in date order with Enter, refuses one twice, and removes them keeping focus in the list', async () => {
    const user = userEvent.setup({ delay: null });
    serve();
    await renderPage();
    const input = screen.getByLabelText('Day off');

    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(input).toHaveAccessibleDescription('Date is required');
    expect(input).toHaveFocus();

    fireEvent.change(input, { target: { value: '2026-11-26' } });
    expect(input).not.toHaveAttribute('aria-invalid');
    await user.click(input);
    await user.keyboard('{Enter}');
    expect(
      within(screen.getByRole('list', { name: 'Days off' }))
        .getAllByRole('listitem')
        .map((d) => d.firstChild?.textContent),
    ).toEqual(['Nov 26, 2026', 'Dec 25, 2026']);

    fireEvent.change(input, { target: { value: '2026-12-25' } });
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(input).toHaveAccessibleDescription('Each day off once');
    expect(screen.getAllByRole('listitem')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Remove Nov 26, 2026' }));
    expect(screen.queryByRole('button', { name: 'Remove Nov 26, 2026' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove Dec 25, 2026' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('No days off')).toBeInTheDocument();
    expect(input).toHaveFocus();
  });

  it("disables a weekday's times when it is closed and brings them back when it opens", async () => {
    const user = userEvent.setup({ delay: null });
    serve();
    await renderPage();
    const open = screen.getByRole('checkbox', { name: 'Open on Thursday' });
    open.focus();
    await user.keyboard(' ');
    expect(open).not.toBeChecked();
    expect(screen.getByLabelText('Thursday opening time')).toBeDisabled();
    await user.keyboard(' ');
    expect(screen.getByLabelText('Thursday opening time')).toBeEnabled();
    expect(screen.getByLabelText('Thursday opening time')).toHaveValue('09:00');
    expect(screen.getByLabelText('Thursday closing time')).toHaveValue('17:00');
  });
});
