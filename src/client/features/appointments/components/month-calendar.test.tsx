// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Appointment } from '#shared/schemas/appointment';
import { makeAppointment } from '#client/test/fixtures.ts';
import { monthGrid } from '../calendar-month.ts';
import { MonthCalendar } from './month-calendar.tsx';

afterEach(cleanup);

function renderMonth(month: Date, appointments: Appointment[] = [], today = '2026-04-10', onOpen = vi.fn()) {
  const grid = monthGrid(month);
  render(
    <>
      <h2 id="title">Month</h2>
      <MonthCalendar
        month={month}
        weeks={grid.weeks}
        appointments={appointments}
        today={today}
        titleId="title"
        busy={false}
        onOpen={onOpen}
      />
    </>,
  );
  return { grid, onOpen };
}

const cells = () => screen.getAllByRole('cell');

describe('MonthCalendar', () => {
  it('starts weeks on Sunday and begins April 2026 on Sunday, March 29', () => {
    const { grid } = renderMonth(new Date(2026, 3, 1));
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
    expect(grid.from).toBe('2026-03-29');
    expect(grid.to).toBe('2026-05-02');
    expect(cells()).toHaveLength(35);
    expect(cells()[0]).toHaveTextContent('Sunday, March 29, 2026');
    expect(cells()[3]).toHaveTextContent('Wednesday, April 1, 2026');
    expect(cells().at(-1)).toHaveTextContent('Saturday, May 2, 2026');
  });

  it('begins a month whose 1st is a Sunday on that day, and spans six weeks when needed', () => {
    const march = monthGrid(new Date(2026, 2, 1));
    expect(march.from).toBe('2026-03-01');
    expect(march.weeks[0]![0]!.getDate()).toBe(1);
    // May 2026 starts on a Friday and has 31 days: six rows.
    const may = monthGrid(new Date(2026, 4, 1));
    expect(may.from).toBe('2026-04-26');
    expect(may.weeks).toHaveLength(6);
  });

  it('highlights today with aria-current="date" and nothing else', () => {
    renderMonth(new Date(2026, 3, 1), [], '2026-04-10');
    const current = cells().filter((cell) => cell.getAttribute('aria-current') === 'date');
    expect(current).toHaveLength(1);
    expect(current[0]).toHaveAttribute('data-date', '2026-04-10');
    expect(current[0]).toHaveTextContent('(today)');
    expect(current[0]).toHaveClass('bg-blue-50');
  });

  it('shows three appointments then "+2 more" with five on a day, and the popover lists all five', async () => {
    const user = userEvent.setup({ delay: null });
    const times = ['08:00', '09:30', '11:00', '13:15', '16:45'];
    const day = times.map((time, i) =>
      makeAppointment({ time, lead: i === 1 ? null : { full_name: `Client ${i}`, email: 'c@example.com', phone: '1' } }),
    );
    const { onOpen } = renderMonth(new Date(2026, 3, 1), day);
    const cell = cells().find((c) => c.getAttribute('data-date') === '2026-04-15')!;
    const buttons = within(cell).getAllByRole('button');
    const names = buttons.slice(0, 3).map((b) => b.getAttribute('aria-label'));
    expect(names).toEqual(['8:00 AM - Client 0', '9:30 AM - Unknown', '11:00 AM - Client 2']);
    // Narrow cells show the start time and the name on two lines, wide ones "8:00 AM - Client 0";
    // the full text shows under it on hover and focus, kept out of the accessible name.
    expect(within(buttons[0]!).getByText('8:00a')).toBeInTheDocument();
    expect(within(buttons[0]!).getByText('Client 0')).toBeInTheDocument();
    const fullText = within(buttons[0]!).getByTestId('appointment-full-text');
    expect(fullText).toHaveTextContent(/^8:00 AM - Client 0$/);
    expect(fullText).toHaveAttribute('aria-hidden', 'true');
    expect(buttons[3]).toHaveTextContent(/^\+2 more$/);
    expect(buttons).toHaveLength(4);

    await user.click(within(cell).getByRole('button', { name: /\+2 more/ }));
    const popover = await screen.findByRole('dialog', { name: 'Appointments on April 15, 2026' });
    const all = within(popover)
      .getAllByRole('button')
      .filter((b) => b.textContent !== '');
    expect(all.map((b) => b.textContent)).toEqual([
      '8:00 AM - Client 0',
      '9:30 AM - Unknown',
      '11:00 AM - Client 2',
      '1:15 PM - Client 3',
      '4:45 PM - Client 4',
    ]);
    await user.click(within(popover).getByRole('button', { name: '4:45 PM - Client 4' }));
    expect(onOpen).toHaveBeenCalledWith(day[4]);
  });

  it('opens the details of a clicked appointment', async () => {
    const user = userEvent.setup({ delay: null });
    const appointment = makeAppointment({ date: '2026-04-02', time: '14:05' });
    const { onOpen } = renderMonth(new Date(2026, 3, 1), [appointment]);
    await user.click(screen.getByRole('button', { name: `2:05 PM - ${appointment.lead!.full_name}` }));
    expect(onOpen).toHaveBeenCalledWith(appointment);
  });

  it('opens the details from the keyboard, each appointment a control in reading order', async () => {
    const user = userEvent.setup({ delay: null });
    const early = makeAppointment({
      date: '2026-04-02',
      time: '08:00',
      lead: { full_name: 'Early Client', email: 'e@example.com', phone: '1' },
    });
    const late = makeAppointment({
      date: '2026-04-02',
      time: '17:30',
      status: 'cancelled',
      lead: { full_name: 'Late Client', email: 'l@example.com', phone: '1' },
    });
    const { onOpen } = renderMonth(new Date(2026, 3, 1), [early, late]);
    await user.tab();
    expect(screen.getByRole('button', { name: '8:00 AM - Early Client' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: '5:30 PM - Late Client (cancelled)' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledWith(late);
    await user.keyboard(' ');
    expect(onOpen).toHaveBeenCalledTimes(2);
  });
});
