// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeAppointment } from '#client/test/fixtures.ts';
import { renderWithProviders } from '#client/test/render-with-providers.tsx';
import { AppointmentDetailsDialog } from './appointment-details-dialog.tsx';

afterEach(cleanup);

const appointment = makeAppointment({
  lead_id: '00000000-0000-4000-8000-0000000000d1',
  lead: { full_name: 'Jane Doe', email: 'jane@example.com', phone: '(301) 555-0100' },
});

const noop = vi.fn();

describe('AppointmentDetailsDialog', () => {
  it('links the lead’s name to the lead page, and shows Unknown Lead for a deleted one', () => {
    renderWithProviders(
      <AppointmentDetailsDialog appointment={appointment} onClose={noop} onDelete={noop} onEdit={noop} onStatus={noop} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Appointment Details' });
    expect(within(dialog).getByRole('link', { name: 'Jane Doe' })).toHaveAttribute(
      'href',
      '/dashboard/leads/00000000-0000-4000-8000-0000000000d1',
    );
    cleanup();
    renderWithProviders(
      <AppointmentDetailsDialog
        appointment={{ ...appointment, lead_id: null, lead: null }}
        onClose={noop}
        onDelete={noop}
        onEdit={noop}
        onStatus={noop}
      />,
    );
    expect(within(screen.getByRole('dialog')).getByText('Unknown Lead')).toBeInTheDocument();
  });

  it('shows who booked through a repeat form, as they typed it, beside the lead’s own details', () => {
    const booked = {
      ...appointment,
      source: 'booking' as const,
      booked_as: { full_name: 'Mallory Stranger', phone: '(202) 555-0199', at: '2026-04-10T14:05:00Z' },
    };
    renderWithProviders(<AppointmentDetailsDialog appointment={booked} onClose={noop} onDelete={noop} onEdit={noop} onStatus={noop} />);
    const dialog = screen.getByRole('dialog', { name: 'Appointment Details' });
    expect(within(dialog).getByRole('link', { name: 'Jane Doe' })).toBeInTheDocument();
    const bookedAs = within(dialog).getByText('Booked as').nextElementSibling;
    expect(bookedAs).toHaveTextContent(
      /^Mallory Stranger, \(202\) 555-0199From a repeat form with this lead’s email \(Apr 10, 2026 \d{1,2}:05 [AP]M\)\. The lead’s details were not changed\.$/,
    );
    cleanup();
    renderWithProviders(
      <AppointmentDetailsDialog appointment={appointment} onClose={noop} onDelete={noop} onEdit={noop} onStatus={noop} />,
    );
    expect(within(screen.getByRole('dialog')).queryByText('Booked as')).toBeNull();
  });
});
