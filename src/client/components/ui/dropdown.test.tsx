// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Dropdown } from './dropdown.tsx';

function Bell() {
  return (
    <>
      <Dropdown triggerLabel="Bell" triggerClassName="" trigger="B" label="Panel" panelClassName="">
        {(close) => (
          <>
            <button type="button">First</button>
            <input aria-label="Middle" type="checkbox" />
            <button type="button" onClick={close}>
              Go
            </button>
          </>
        )}
      </Dropdown>
      <button type="button">Elsewhere</button>
    </>
  );
}

const bell = () => screen.getByRole('button', { name: 'Bell' });

afterEach(cleanup);

describe('Dropdown', () => {
  it('opens on click with focus on the panel, and the button says it is expanded', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Bell />);
    expect(bell()).toHaveAttribute('aria-expanded', 'false');
    expect(bell()).toHaveAttribute('aria-haspopup', 'dialog');
    await user.click(bell());
    const panel = await screen.findByRole('dialog', { name: 'Panel' });
    expect(bell()).toHaveAttribute('aria-expanded', 'true');
    expect(bell()).toHaveAttribute('aria-controls', panel.id);
    await waitFor(() => expect(panel).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'First' }));
    expect(screen.getByRole('dialog', { name: 'Panel' })).toBeInTheDocument();
  });

  it('moves between the controls with the arrow keys, Home and End', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Bell />);
    await user.click(bell());
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('checkbox', { name: 'Middle' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('button', { name: 'Go' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('button', { name: 'Go' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
  });

  it('closes on Escape and puts focus back on the button', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Bell />);
    await user.click(bell());
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bell()).toHaveFocus();
    expect(bell()).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes on a click outside, on focus moving outside, on the button again, and from inside (focus stays put)', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Bell />);
    await user.click(bell());
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Elsewhere' })).toHaveFocus();

    await user.click(bell());
    await screen.findByRole('dialog');
    act(() => screen.getByRole('button', { name: 'Elsewhere' }).focus());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(bell());
    await screen.findByRole('dialog');
    await user.click(bell());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(bell());
    await user.click(await screen.findByRole('button', { name: 'Go' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bell()).not.toHaveFocus();
  });
});
