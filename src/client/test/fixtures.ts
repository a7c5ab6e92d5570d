import type { Appointment } from '#shared/schemas/appointment';
import type { Lead, LeadDetail } from '#shared/schemas/lead';

let counter = 0;

/** A lead as the API returns it, with overrides. */
export function makeLead(overrides: Partial<Lead> = {}): Lead {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    created_at: '2025-01-05T14:30:00.000Z',
    status: 'New',
    full_name: `Lead ${counter}`,
    email: `lead${counter}@example.com`,
    phone: `(301) 555-01${String(counter).padStart(2, '0')}`,
    property_types: ['single-family'],
    contacted: false,
    message: null,
    owner_id: null,
    owner_email: null,
    owner_name: null,
    property_address: null,
    target_closing_date: null,
    estimated_fee_cents: null,
    follow_up_on: null,
    follow_up_note: null,
    from_form: false,
    suspected_abuse_at: null,
    do_not_email: false,
    updated_at: '2025-01-05T14:30:00.000Z',
    unread_replies: 0,
    stop_request: null,
    ...overrides,
  };
}

export function makeLeadDetail(overrides: Partial<LeadDetail> = {}): LeadDetail {
  return { ...makeLead(overrides), status_history: [], ...overrides };
}

let appointments = 0;

/** A scheduled 30-minute call on 15 April 2026 at 09:00, as the API returns it, with overrides. */
export function makeAppointment(overrides: Partial<Appointment> = {}): Appointment {
  appointments += 1;
  return {
    id: `20000000-0000-4000-8000-${String(appointments).padStart(12, '0')}`,
    lead_id: '00000000-0000-4000-8000-000000000001',
    date: '2026-04-15',
    time: '09:00',
    type: 'Call',
    notes: null,
    duration_minutes: 30,
    location: null,
    status: 'scheduled',
    cancelled_by: null,
    source: 'staff',
    booked_as: null,
    host_id: null,
    host_name: null,
    lead: { full_name: `Lead ${appointments}`, email: `lead${appointments}@example.com`, phone: '(301) 555-0100' },
    ...overrides,
  };
}
