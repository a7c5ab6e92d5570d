import { createHash } from 'node:crypto';
import { APPOINTMENT_TYPES, PROPERTY_TYPES } from '#shared/constants';

/** Believable demo content, generated deterministically so a second run adds nothing. */
const FIRST = ['James', 'Maria', 'Robert', 'Linda', 'Michael', 'Patricia', 'David', 'Jennifer', 'Carlos', 'Aisha', 'Kevin', 'Priya', 'Thomas', 'Grace', 'Daniel', 'Sofia', 'Marcus', 'Emily', 'Andre', 'Hannah'];
const LAST = ['Carter', 'Nguyen', 'Patel', 'Johnson', 'Rivera', 'Kim', 'Thompson', 'Garcia', 'Brooks', 'Murphy', 'Okafor', 'Schmidt', 'Reyes', 'Coleman', 'Walsh'];
const MESSAGES = [
  'Looking at a 4-unit in Baltimore, need rent comps and a rehab estimate.',
  'Evaluating a strip mall in Frederick. Can you review the T-12?',
  'First-time investor, single-family in Hagerstown. What does a report include?',
  'Raw land parcel, 12 acres, zoning questions.',
  'Portfolio of 6 SFRs in Ohio, need underwriting this week.',
  '',
  'Mixed-use building, retail below and 3 apartments above.',
  'Need a second opinion on a BRRRR deal before closing.',
];
const STATUSES = ['New', 'New', 'New', 'Contacted', 'Contacted', 'Converted', 'Dropped'] as const;
const PAGES = ['/', '/', '/', '/', '/privacy', '/careers', '/terms', '/cookies'];

/** A stable UUID from a name (the hash's first 16 bytes, marked as version 4 / variant 1). */
export function stableUuid(name: string): string {
  const h = createHash('sha256').update(`demo:${name}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function demoLeads(count = 48) {
  return Array.from({ length: count }, (_, i) => {
    const first = FIRST[(i * 7) % FIRST.length]!;
    const last = LAST[(i * 11) % LAST.length]!;
    return {
      submission_id: stableUuid(`lead-${i}`),
      full_name: `${first} ${last}`,
      email: `${first}.${last}${i}@example.com`.toLowerCase(),
      phone: `(${240 + (i % 60)}) 555-${String(1000 + i * 37).slice(-4)}`,
      property_types: [PROPERTY_TYPES[i % PROPERTY_TYPES.length]!],
      message: MESSAGES[i % MESSAGES.length] || null,
      status: STATUSES[i % STATUSES.length]!,
      // Spread over the last 60 days, newest first.
      daysAgo: Math.floor((i * 60) / count),
      hour: 8 + ((i * 5) % 11),
    };
  });
}

export function demoAppointments(leadIds: string[], today: Date) {
  return Array.from({ length: 18 }, (_, i) => {
    const dayOffset = i - 6; // six in the past, the rest from today on
    const day = new Date(today.getTime() + dayOffset * 86_400_000);
    return {
      id: stableUuid(`appointment-${i}`),
      lead_id: leadIds[i % leadIds.length]!,
      date: day.toISOString().slice(0, 10),
      time: `${String(9 + ((i * 3) % 8)).padStart(2, '0')}:${i % 2 === 0 ? '00' : '30'}`,
      type: APPOINTMENT_TYPES[i % APPOINTMENT_TYPES.length]!,
      notes: i % 3 === 0 ? null : ['Walk through the rent roll.', 'Bring comps for the area.', 'Discuss report scope and timeline.'][i % 3]!,
    };
  });
}

export const demoPages = PAGES;
