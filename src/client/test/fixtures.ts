import type { Appointment } from '#shared/schemas/appointment';
import type { Lead, LeadDetail } from '#shared/schemas/lead';
import type { PipelineStage } from '#shared/schemas/pipeline';

let counter = 0;

/** The pipeline a new database starts with, as `GET /api/pipeline/stages` answers it (no leads counted). */
export const FIXTURE_STAGES: PipelineStage[] = [
  { id: '00000000-0000-4000-8000-00000000a001', name: 'New', status: 'New', position: 1, probability: 10, leads: 0 },
  { id: '00000000-0000-4000-8000-00000000a002', name: 'Call booked', status: 'Contacted', position: 1, probability: 25, leads: 0 },
  { id: '00000000-0000-4000-8000-00000000a003', name: 'Proposal sent', status: 'Contacted', position: 2, probability: 50, leads: 0 },
  { id: '00000000-0000-4000-8000-00000000a004', name: 'Engaged', status: 'Contacted', position: 3, probability: 75, leads: 0 },
  { id: '00000000-0000-4000-8000-00000000a005', name: 'Won', status: 'Converted', position: 1, probability: null, leads: 0 },
  { id: '00000000-0000-4000-8000-00000000a006', name: 'Lost', status: 'Dropped', position: 1, probability: null, leads: 0 },
];
export const FIXTURE_LOST_REASONS = [
  { id: '00000000-0000-4000-8000-00000000b001', name: 'Price' },
  { id: '00000000-0000-4000-8000-00000000b002', name: 'Chose another firm' },
];

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
    ...stageOf(overrides.status ?? 'New'),
    ...overrides,
  };
}

/** The first stage of a status, as a lead in it carries it. */
function stageOf(status: Lead['status']): Pick<Lead, 'stage_id' | 'stage_name' | 'lost_reason'> {
  const stage = FIXTURE_STAGES.find((s) => s.status === status)!;
  return { stage_id: stage.id, stage_name: stage.name, lost_reason: status === 'Dropped' ? 'Not given' : null };
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

/** An owner signed in, for pages only owners see. */
export const FIXTURE_OWNER = { id: '11111111-1111-4111-8111-111111111111', email: 'olive@example.com', role: 'owner' as const };
