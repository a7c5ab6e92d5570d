// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '#client/components/ui/toast-store.ts';
import { makeLead } from '#client/test/fixtures.ts';
import { mockApi, renderWithProviders } from '#client/test/render-with-providers.tsx';
import { AddLeadDialog } from './add-lead-dialog.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <AddLeadDialog open={open} onOpenChange={setOpen} />
    </>
  );
}

async function openForm() {
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<Harness />);
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Add Lead' }) };
}

async function fillValid(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
  await user.type(within(dialog).getByLabelText('Full Name'), 'Ada Lovelace');
  await user.type(within(dialog).getByLabelText('Email'), 'Ada@Example.com');
  await user.type(within(dialog).getByLabelText('Phone'), '(301) 555-0101');
  await user.selectOptions(within(dialog).getByLabelText('Property Type'), 'Land');
  await user.type(within(dialog).getByLabelText('Additional Information'), 'Two acres');
}

describe('AddLeadDialog', () => {
  it("shows the product's message under each invalid field and sends nothing", async () => {
    const { calls } = mockApi(() => undefined);
    const { user, dialog } = await openForm();
    expect(within(dialog).getByLabelText('Property Type')).toHaveDisplayValue('Select property type');

    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Email is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Phone number is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Property type is required')).toBeInTheDocument();
    const name = within(dialog).getByLabelText('Full Name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveClass('border-red-500');
    expect(name).toHaveAccessibleDescription('Name is required');

    await user.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    expect(await within(dialog).findByText('Invalid email address')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('posts the lead, toasts, closes, and opens empty next time', async () => {
    const { calls } = mockApi(({ method, path, body }) => {
      if (method === 'POST' && path === '/api/leads') return { status: 201, body: makeLead(body as object) };
      return undefined;
    });
    const { user, dialog } = await openForm();
    await fillValid(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));

    expect(await screen.findByText('Lead added successfully')).toBeInTheDocument();
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/leads',
        body: {
          full_name: 'Ada Lovelace',
          email: 'ada@example.com',
          phone: '(301) 555-0101',
          property_types: ['land'],
          message: 'Two acres',
        },
      },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open' }));
    const again = screen.getByRole('dialog', { name: 'Add Lead' });
    expect(within(again).getByLabelText('Full Name')).toHaveValue('');
    expect(within(again).getByLabelText('Email')).toHaveValue('');
    expect(within(again).getByLabelText('Property Type')).toHaveValue('');
  });

  it('disables the submit button while the request runs', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        await gate;
        return new Response(JSON.stringify(makeLead()), { status: 201, headers: { 'content-type': 'application/json' } });
      }),
    );
    const { user, dialog } = await openForm();
    await fillValid(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    expect(await within(dialog).findByRole('button', { name: 'Adding...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Lead added successfully')).toBeInTheDocument();
  });

  it("shows the server's field errors under the fields and toasts Failed to add lead", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi(() => ({
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'Some fields are not valid.',
          fields: { email: 'Invalid email address', property_types: 'Property type is required' },
        },
      },
    }));
    const { user, dialog } = await openForm();
    await fillValid(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to add lead');
    expect(within(dialog).getByLabelText('Email')).toHaveAccessibleDescription('Invalid email address');
    expect(within(dialog).getByLabelText('Property Type')).toHaveAccessibleDescription('Property type is required');
    expect(within(dialog).getByLabelText('Full Name')).toHaveValue('Ada Lovelace');
  });

  it('closes on Escape and returns focus to the button that opened it', async () => {
    mockApi(() => undefined);
    const { user } = await openForm();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus());
  });
});
