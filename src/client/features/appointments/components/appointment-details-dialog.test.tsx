// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Appointment } from '#shared/schemas/appointment';
import { renderWithProviders } from '#client/test/render-with-providers.tsx';
import { AppointmentDetailsDialog } from './appointment-details-dialog.tsx';

afterEach(cleanup);

const appointment: Appointment = {
  id: '20000000-0000-4000-8000-000000000001',
  lead_id: '00000000-0000-4000-8000-0000000000d1',
  date: '2026-04-15',
  time: '09:00',
  type: 'Call',
  notes: null,
  duration_minutes: 30,
  location: null,
  status: 'scheduled',
  cancelled_by: null,
  source: 'staff',
  lead: { full_name: 'Jane Doe', email: 'jane@example.com', phone: '(301) 555-0100' },
};

const noop = vi.fn();

describe('AppointmentDetailsDialog', () => {
  it('links the lead’s name to the lead page, and shows Unknown Lead for a deleted one', () => {
    renderWithProviders(<AppointmentDetailsDialog appointment={appointment} onClose={noop} onDelete={noop} onEdit={noop} onStatus={noop} />);
    const dialog = screen.getByRole('dialog', { name: 'Appointment Details' });
    expect(within(dialog).getByRole('link', { name: 'Jane Doe' })).toHaveAttribute('href', '/dashboard/leads/00000000-0000-4000-8000-0000000000d1');
    cleanup();
    renderWithProviders(<AppointmentDetailsDialog appointment={{ ...appointment, lead_id: null, lead: null }} onClose={noop} onDelete={noop} onEdit={noop} onStatus={noop} />);
    expect(within(screen.getByRole('dialog')).getByText('Unknown Lead')).toBeInTheDocument();
  });
});
