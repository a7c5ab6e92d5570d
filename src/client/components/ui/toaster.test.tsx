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
});

describe('Toaster', () => {
  it('announces success as status and errors as alert, and closes on click', async () => {
    const user = userEvent.setup();
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
    act(() => void vi.advanceTimersByTime(7000));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });
});
