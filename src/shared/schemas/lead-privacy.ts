import * as z from 'zod';
import { leadSchema } from './lead.ts';
import { MERGE_FIELDS, type MergeField } from '../constants.ts';
import { notifiedFields } from './api-keys.ts';

export { MERGE_FIELDS };
export type { MergeField };

/**
 * A person's data requests and their duplicates: "Export everything", "Erase", deleting a lead
 * with appointments, and merging two leads of one email (docs/product-rules.md, "Personal data requests").
 */

const timestamp = z.string();
const nullableTimestamp = z.string().nullable();

/** The lead's row, every column as stored (the export's test holds it to the table's columns). */
export const exportedLeadSchema = z
  .strictObject({
    id: z.uuid(),
    created_at: timestamp,
    updated_at: timestamp,
    status: z.string(),
    contacted: z.boolean(),
    full_name: z.string(),
    email: z.string(),
    phone: z.string(),
    /** The phone's digits (derived, for search). */
    phone_digits: z.string(),
    property_types: z.array(z.string()),
    message: z.string().nullable(),
    submission_id: z.string().nullable(),
    analytics_session_id: z.string().nullable(),
    source: z.string().nullable(),
    utm_source: z.string().nullable(),
    utm_medium: z.string().nullable(),
    utm_campaign: z.string().nullable(),
    landing_page: z.string().nullable(),
    pages_viewed: z.number().int().nullable(),
    visit_hour: nullableTimestamp,
    owner_id: z.string().nullable(),
    property_address: z.string().nullable(),
    target_closing_date: z.string().nullable(),
    estimated_fee_cents: z.number().int().nullable(),
    follow_up_on: z.string().nullable(),
    follow_up_note: z.string().nullable(),
    suspected_abuse_at: nullableTimestamp,
    /** The token in the reply address of the messages staff wrote to them (null until the first). */
    reply_token: z.string().nullable(),
    /** Staff marked them Do not email. */
    do_not_email: z.boolean(),
    /** The pipeline stage they are in (its name is in the stage list, Settings → Pipeline). */
    stage_id: z.string(),
    /** Why the deal was lost, for a Dropped lead. */
    lost_reason: z.string().nullable(),
    /** When they entered that stage. */
    stage_entered_at: timestamp,
  })
  .meta({ id: 'ExportedLead' });

/** An appointment's row, every column as stored (`blocks`: the time it takes up, buffer included). */
export const exportedAppointmentSchema = z
  .strictObject({
    id: z.uuid(),
    lead_id: z.string().nullable(),
    date: z.string(),
    time: z.string(),
    type: z.string(),
    notes: z.string().nullable(),
    created_at: timestamp,
    reminder_sent_at: nullableTimestamp,
    sequence: z.number().int(),
    lead_reminder_sent_at: nullableTimestamp,
    duration_minutes: z.number().int(),
    location: z.string().nullable(),
    status: z.string(),
    cancelled_by: z.string().nullable(),
    source: z.string(),
    /** The repeat form (a timeline inquiry) whose booking link booked it, if any. */
    inquiry_id: z.string().nullable(),
    buffer_minutes: z.number().int(),
    overlap_allowed: z.boolean(),
    changed_by: z.string().nullable(),
    blocks: z.string().nullable(),
    /** A website booking's client network (/24 or /64): the person's own data, so in their export. */
    booked_network: z.string().nullable(),
    /** The time zone of the visitor who booked it online, as their browser named it. */
    visitor_time_zone: z.string().nullable(),
    /** The team member who takes the call (an account id). */
    host_id: z.string().nullable(),
  })
  .meta({ id: 'ExportedAppointment' });

/** The most raw analytics events one export carries (the newest); `visits.truncated` says when there were more. */
export const EXPORT_VISIT_EVENTS_LIMIT = 5000;

export const leadExportSchema = z
  .object({
    exported_at: timestamp,
    lead: exportedLeadSchema,
    /** The admin who works the lead (email), if any. */
    owner_email: z.string().nullable(),
    status_history: z.array(
      z.object({ from_status: z.string().nullable(), to_status: z.string(), changed_at: timestamp, changed_by: z.string().nullable() }),
    ),
    /** Timeline entries: inquiries, appointment changes, owner and next-step changes, merges, imports. */
    events: z.array(
      z.object({
        id: z.uuid(),
        kind: z.string(),
        data: z.record(z.string(), z.unknown()),
        actor: z.string().nullable(),
        created_at: timestamp,
      }),
    ),
    notes: z.array(
      z.object({ id: z.uuid(), body: z.string(), author: z.string().nullable(), created_at: timestamp, updated_at: timestamp }),
    ),
    appointments: z.array(exportedAppointmentSchema),
    /** Tasks about them (calls, emails, meetings, to-dos), done or not, and for whom (emails). */
    tasks: z.array(
      z.object({
        id: z.uuid(),
        type: z.string(),
        title: z.string().nullable(),
        due_at: timestamp,
        assignee: z.string().nullable(),
        done_at: timestamp.nullable(),
        created_at: timestamp,
      }),
    ),
    /** Emails to the person, or to staff about them, with the snapshot each was written from. */
    emails: z.array(
      z.object({
        id: z.uuid(),
        kind: z.string(),
        to_address: z.string(),
        to_name: z.string().nullable(),
        status: z.string(),
        attempts: z.number().int(),
        last_error: z.string().nullable(),
        created_at: timestamp,
        sent_at: nullableTimestamp,
        data: z.record(z.string(), z.unknown()),
      }),
    ),
    /** Mail from them (or about them) read from the reply mailbox, with its files (base64). */
    replies: z.array(
      z.object({
        id: z.uuid(),
        from_address: z.string(),
        from_name: z.string(),
        to_addresses: z.string(),
        cc_addresses: z.string(),
        subject: z.string(),
        sent_at: timestamp.nullable(),
        received_at: timestamp,
        body: z.string(),
        attachments: z.array(
          z.object({ filename: z.string(), content_type: z.string(), size: z.number().int(), content_base64: z.string() }),
        ),
      }),
    ),
    /** Their visits to the site: the analytics sessions of their form submissions and those sessions' raw events. */
    visits: z.object({
      session_ids: z.array(z.string()),
      events: z.array(
        z.object({
          session_id: z.string(),
          event_type: z.string(),
          page_path: z.string(),
          time_spent: z.number().int().nullable(),
          referrer: z.string().nullable(),
          referrer_host: z.string().nullable(),
          utm_source: z.string().nullable(),
          utm_medium: z.string().nullable(),
          utm_campaign: z.string().nullable(),
          device: z.string().nullable(),
          user_agent: z.string().nullable(),
          created_at: timestamp,
        }),
      ),
      /** More events than EXPORT_VISIT_EVENTS_LIMIT: the newest are here. */
      truncated: z.boolean(),
    }),
  })
  .meta({ id: 'LeadExport' });
export type LeadExport = z.infer<typeof leadExportSchema>;

export const eraseResponseSchema = z
  .object({
    erased: z.literal(true),
    /** The lead, and its legacy duplicates (leads of the same email: the same person). */
    leads_removed: z.number().int(),
    /** Their appointments stay (the calendar and counts are intact), without lead, notes or place. */
    appointments_kept: z.number().int(),
    notifications_removed: z.number().int(),
    /** Raw analytics events of their sessions; the hourly rollups keep counting them. */
    events_removed: z.number().int(),
    /**
     * The team's own calendars (CalDAV) that still hold a copy of one of their calls: not reached
     * just now; the copies are removed when they answer.
     */
    calendars_unreachable: z.array(z.string()),
  })
  .meta({ id: 'EraseResponse' });
export type EraseResponse = z.infer<typeof eraseResponseSchema>;

/** What deleting a lead does to its appointments: keep them ("Unknown Lead"), cancel them, or delete them. */
export const APPOINTMENT_CHOICES_ON_DELETE = ['keep', 'cancel', 'delete'] as const;
export type AppointmentsOnDelete = (typeof APPOINTMENT_CHOICES_ON_DELETE)[number];

export const deleteLeadQuerySchema = z.object({
  appointments: z.enum(APPOINTMENT_CHOICES_ON_DELETE, { error: 'Choose keep, cancel or delete' }).default('keep'),
});

export const deleteLeadResponseSchema = z
  .object({
    id: z.uuid(),
    /** How many appointments were cancelled or deleted with it (both 0 when kept). */
    appointments_cancelled: z.number().int(),
    appointments_deleted: z.number().int(),
    ...notifiedFields,
  })
  .meta({ id: 'DeleteLeadResponse' });
export type DeleteLeadResponse = z.infer<typeof deleteLeadResponseSchema>;

/** A lead's appointments: all of them, and those scheduled and still to come. */
export const appointmentCountsSchema = z.object({ total: z.number().int(), upcoming: z.number().int() }).meta({ id: 'AppointmentCounts' });
export type AppointmentCounts = z.infer<typeof appointmentCountsSchema>;

export const duplicatesResponseSchema = z.object({ leads: z.array(leadSchema) }).meta({ id: 'DuplicatesResponse' });
export type DuplicatesResponse = z.infer<typeof duplicatesResponseSchema>;

const side = z.enum(['this', 'other'], { error: 'Choose this or other' });

export const mergeRequestSchema = z
  .object({
    /** The duplicate merged into this lead, then deleted. */
    other_id: z.uuid('Invalid lead id'),
    /** Per field, whose value stays; a field left out keeps this lead's. */
    keep: z
      .strictObject(
        Object.fromEntries(MERGE_FIELDS.map(([field]) => [field, side.optional()])) as Record<MergeField, z.ZodOptional<typeof side>>,
      )
      .default({}),
  })
  .meta({ id: 'MergeRequest' });
export type MergeRequest = z.infer<typeof mergeRequestSchema>;
