import * as z from 'zod';
import { appointmentSchema } from './appointment.ts';
import { leadSchema } from './lead.ts';

/** A lead whose next step is due: today's, or overdue (its date has passed). */
export const dueFollowUpSchema = z
  .object({
    lead_id: z.uuid(),
    full_name: z.string(),
    follow_up_on: z.string(),
    follow_up_note: z.string().nullable(),
    owner_email: z.string().nullable(),
    owner_name: z.string().nullable(),
    overdue: z.boolean(),
  })
  .meta({ id: 'DueFollowUp' });
export type DueFollowUp = z.infer<typeof dueFollowUpSchema>;

/** A lead with replies nobody has read yet. */
export const replyToReadSchema = z
  .object({ lead_id: z.uuid(), full_name: z.string(), unread: z.number().int(), subject: z.string(), received_at: z.string() })
  .meta({ id: 'ReplyToRead' });
export type ReplyToRead = z.infer<typeof replyToReadSchema>;

/** Everything the Overview shows, computed by the server in SQL. */
export const overviewSchema = z
  .object({
    total_leads: z.number().int(),
    total_appointments: z.number().int(),
    new_leads: z.number().int(),
    upcoming_appointments: z.number().int(),
    recent_leads: z.array(leadSchema),
    upcoming: z.array(appointmentSchema),
    /** Median seconds from a lead's creation to Contacted, for leads of the last 30 days; null with none. */
    median_seconds_to_contacted: z.number().nullable(),
    /** Calls of the last 30 days marked no-show (the lead did not come). */
    no_shows_30_days: z.number().int(),
    /** Next steps due today or overdue (business time zone), oldest date first, 20 at most. */
    follow_ups: z.array(dueFollowUpSchema),
    /** Leads with unread replies, the newest reply first, 10 at most. */
    replies_to_read: z.array(replyToReadSchema),
    /** The pipeline's forecast (the board's Expected fees): open leads' fee × their stage's probability, whole cents. */
    expected_fees_cents: z.number().int(),
  })
  .meta({ id: 'Overview' });
export type Overview = z.infer<typeof overviewSchema>;
