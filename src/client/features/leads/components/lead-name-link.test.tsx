// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeLead } from '#client/test/fixtures.ts';
import { renderWithProviders } from '#client/test/render-with-providers.tsx';
import type { Lead } from '#shared/schemas/lead';
import { useLeadSelection } from '../use-lead-selection.ts';
import { LeadsTable } from './leads-table.tsx';

function Table({ leads, onEdit, onDelete }: { leads: Lead[]; onEdit: (lead: Lead) => void; onDelete: (lead: Lead) => void }) {
  const selection = useLeadSelection('view');
  return (
    <LeadsTable
      leads={leads}
      busy={false}
      selection={selection}
      onEdit={onEdit}
      onDelete={onDelete}
      sort="created"
      dir="desc"
      onSort={() => {}}
    />
  );
}

afterEach(cleanup);

describe('LeadsTable', () => {
  it('links each lead’s name to its page and keeps Edit and Delete as buttons', async () => {
    const user = userEvent.setup({ delay: null });
    const lead = makeLead({ full_name: 'Ada Lovelace' });
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    renderWithProviders(<Table leads={[lead]} onEdit={onEdit} onDelete={onDelete} />, { url: '/dashboard/leads?search=ada' });
    const row = screen.getByRole('row', { name: /Ada Lovelace/ });
    await user.click(within(row).getByRole('button', { name: 'Edit Ada Lovelace' }));
    await user.click(within(row).getByRole('button', { name: 'Delete Ada Lovelace' }));
    expect(onEdit).toHaveBeenCalledWith(lead);
    expect(onDelete).toHaveBeenCalledWith(lead);
    await user.click(within(row).getByRole('link', { name: 'Ada Lovelace' }));
    expect(screen.getByTestId('current-url')).toHaveTextContent(`/dashboard/leads/${lead.id}`);
  });
});
