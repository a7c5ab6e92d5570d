// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from './toast-store.ts';
import { Toaster } from './toaster.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Toaster', () => {
  it('announces success as status and errors as alert, and closes on click', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Toaster />);
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeEmptyDOMElement();
    act(() => {
      toast.success('Saved');
      toast.error('Broken');
    });
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
    expect(screen.getByRole('alert')).toHaveTextContent('Broken');
    await user.click(screen.getAllByRole('button', { name: 'Close notification' })[0]!);
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    expect(screen.getByText('Broken')).toBeInTheDocument();
  });

  it('dismisses a toast by itself after a while', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => void toast.success('Saved'));
    act(() => void vi.advanceTimersByTime(5_100));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it("keeps the person's own toast for 5 s while live notifications arrive, which wait behind it", () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => void toast.success('Lead updated successfully'));
    act(() => {
      for (let i = 1; i <= 5; i += 1) toast.info('New Lead', `New lead: Visitor ${i}`);
    });
    // Not pushed out, not joined: the live toasts wait.
    expect(screen.getByRole('status')).toHaveTextContent('Lead updated successfully');
    expect(screen.queryByText(/New lead: Visitor/)).not.toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(4_900));
    expect(screen.getByText('Lead updated successfully')).toBeInTheDocument();
    expect(screen.queryByText(/New lead: Visitor/)).not.toBeInTheDocument();

    act(() => void vi.advanceTimersByTime(200));
    expect(screen.queryByText('Lead updated successfully')).not.toBeInTheDocument();
    // Then the newest four, in the order they came (the bell holds them all).
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toEqual([2, 3, 4, 5].map((i) => `New LeadNew lead: Visitor ${i}`));
  });

  it('shows a new action toast above the live ones already shown, and never drops it for them', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast.info('New Lead', 'New lead: Early Bird');
      toast.error('Failed to update lead');
      toast.info('New Lead', 'New lead: Late Comer');
      toast.info('New Lead', 'New lead: Later Still');
    });
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region.children[0]).toHaveTextContent('Failed to update lead');
    expect(region.children[1]).toHaveTextContent('New lead: Early Bird');
    expect(region.children).toHaveLength(2);
    // An error stays 10 s; the waiting ones come when it goes.
    act(() => void vi.advanceTimersByTime(9_900));
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to update lead');
    expect(screen.queryByText('New lead: Late Comer')).not.toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(200));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // The one shown before had its own 8 s meanwhile.
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toEqual(
      ['Late Comer', 'Later Still'].map((n) => `New LeadNew lead: ${n}`),
    );
  });

  it('shows the waiting live toasts as soon as the person closes their own', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Toaster />);
    act(() => {
      toast.success('Appointment cancelled');
      toast.info('Booking', 'Booking moved: Jane Doe');
    });
    expect(screen.queryByText('Booking moved: Jane Doe')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.getByRole('status')).toHaveTextContent('Booking moved: Jane Doe');
  });

  it('keeps five action toasts at most four, the newest', () => {
    render(<Toaster />);
    act(() => {
      for (let i = 1; i <= 5; i += 1) toast.success(`Saved ${i}`);
    });
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toEqual(['Saved 2', 'Saved 3', 'Saved 4', 'Saved 5']);
  });

  it('does not count the time a hidden tab was away', () => {
    vi.useFakeTimers();
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    render(<Toaster />);
    act(() => void toast.success('Lead added successfully'));
    act(() => void vi.advanceTimersByTime(60_000));
    expect(screen.getByText('Lead added successfully')).toBeInTheDocument();
    visibility.mockReturnValue('visible');
    act(() => void vi.advanceTimersByTime(4_900));
    expect(screen.getByText('Lead added successfully')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(200));
    expect(screen.queryByText('Lead added successfully')).not.toBeInTheDocument();
  });
});
