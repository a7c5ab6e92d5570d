// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useDropdown } from './use-dropdown.ts';

function Bell() {
  const { open, containerRef, triggerRef, panelRef, triggerProps, panelProps } = useDropdown();
  return (
    <>
      <div ref={containerRef}>
        <button ref={triggerRef} type="button" {...triggerProps}>
          Bell
        </button>
        {open ? (
          <div ref={panelRef} {...panelProps} role="dialog" aria-label="Panel">
            <button type="button">Inside</button>
          </div>
        ) : null}
      </div>
      <button type="button">Elsewhere</button>
    </>
  );
}

afterEach(cleanup);

describe('useDropdown', () => {
  it('opens on click with focus in the panel, and the button says it is expanded', async () => {
    const user = userEvent.setup();
    render(<Bell />);
    const bell = screen.getByRole('button', { name: 'Bell' });
    expect(bell).toHaveAttribute('aria-expanded', 'false');
    await user.click(bell);
    const panel = screen.getByRole('dialog', { name: 'Panel' });
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    expect(bell).toHaveAttribute('aria-controls', panel.id);
    expect(panel).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Inside' }));
    expect(screen.getByRole('dialog', { name: 'Panel' })).toBeInTheDocument();
  });

  it('closes on Escape and puts focus back on the button', async () => {
    const user = userEvent.setup();
    render(<Bell />);
    await user.click(screen.getByRole('button', { name: 'Bell' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bell' })).toHaveFocus();
  });

  it('closes on a click outside, on focus moving outside, and on the button again', async () => {
    const user = userEvent.setup();
    render(<Bell />);
    const bell = screen.getByRole('button', { name: 'Bell' });
    await user.click(bell);
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(bell);
    act(() => screen.getByRole('button', { name: 'Elsewhere' }).focus());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(bell);
    await user.click(bell);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
