// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TextField } from '#client/components/ui/text-field.tsx';
import { useCheckedForm, type FormCheck } from './use-checked-form.ts';

type Values = { name: string; city: string };
const check = (v: Values): FormCheck<Values, Values> => {
  const errors = { name: v.name ? undefined : 'Name is required', city: v.city ? undefined : 'City is required' };
  return errors.name || errors.city ? { ok: false, errors } : { ok: true, value: v };
};

function Form({ onValid }: { onValid: (v: Values) => Promise<void> }) {
  const form = useCheckedForm({ name: '', city: '' }, check);
  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(onValid)(event)}>
      <TextField label="Name" {...form.field('name')} />
      <TextField label="City" {...form.field('city')} />
      <button type="submit">{form.submitting ? 'Saving...' : 'Save'}</button>
    </form>
  );
}

afterEach(cleanup);

describe('useCheckedForm', () => {
  it('shows every message on submit, focuses the first invalid field, and sends nothing', async () => {
    const onValid = vi.fn(() => Promise.resolve());
    render(<Form onValid={onValid} />);
    await userEvent.type(screen.getByLabelText('City'), 'Austin');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.queryByText('City is required')).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(onValid).not.toHaveBeenCalled();
  });

  it('checks each change again after a first submit, so a message goes as soon as the input is right', async () => {
    render(<Form onValid={() => Promise.resolve()} />);
    await userEvent.type(screen.getByLabelText('Name'), 'J');
    expect(screen.queryByText('City is required')).toBeNull(); // nothing said before a submit
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('City is required')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('City'), 'A');
    expect(screen.queryByText('City is required')).toBeNull();
  });

  it('sends the checked values once, and is busy while the handler runs', async () => {
    let finish = () => {};
    const onValid = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<Form onValid={onValid} />);
    await userEvent.type(screen.getByLabelText('Name'), 'Jane');
    await userEvent.type(screen.getByLabelText('City'), 'Austin');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(screen.getByRole('button', { name: 'Saving...' }));
    expect(onValid).toHaveBeenCalledTimes(1);
    expect(onValid).toHaveBeenCalledWith({ name: 'Jane', city: 'Austin' });
    finish();
    expect(await screen.findByRole('button', { name: 'Save' })).toBeTruthy();
  });
});
