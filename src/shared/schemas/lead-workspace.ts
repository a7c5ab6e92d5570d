import * as z from 'zod';
import { storableText } from './text.ts';
import { mergeFieldProblem } from '../rules/merge-fields.ts';
import { receivedMailFields } from './inbox.ts';
import { emailSchema, leadStatusSchema } from './lead.ts';
import { EMAIL_MESSAGE_STATUSES } from './email.ts';
import {
  CALL_DURATION_MAX,
  CALL_NOTES_MAX,
  CALL_OUTCOMES,
  LEAD_EMAIL_BODY_MAX,
  LEAD_EMAIL_SUBJECT_MAX,
  NOTE_MAX_LENGTH,
  TASK_TYPES,
} from '../constants.ts';

export { NOTE_MAX_LENGTH };

/**
 * The lead page's contract beyond the lead itself: its timeline, its notes, and the admins
 * a lead can be given to.
 */

export const noteBodySchema = storableText({ error: 'Note is required' })
  .trim()
  .min(1, { message: 'Note is required', abort: true })
  .max(NOTE_MAX_LENGTH, `Note must be at most ${NOTE_MAX_LENGTH.toLocaleString('en-US')} characters`);

/** Refuses a text with a `{{field}}` we cannot fill, saying which fields there are. */
const knownMergeFields = <S extends z.ZodType<string>>(schema: S) =>
  schema.superRefine((text, ctx) => {
    const problem = mergeFieldProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A message's subject (one line) and text, as written or as a template holds them, merge fields and all. */
export const messageSubjectSchema = knownMergeFields(
  storableText({ error: 'Subject is required' })
    .trim()
    .min(1, { message: 'Subject is required', abort: true })
    .max(LEAD_EMAIL_SUBJECT_MAX, `Subject must be at most ${LEAD_EMAIL_SUBJECT_MAX} characters`)
    .refine((s) => !/[\r\n]/.test(s), 'Subject must be one line'),
);
export const messageBodySchema = knownMergeFields(
  storableText({ error: 'Message is required' })
    .trim()
    .min(1, { message: 'Message is required', abort: true })
    .max(LEAD_EMAIL_BODY_MAX, `Message must be at most ${LEAD_EMAIL_BODY_MAX.toLocaleString('en-US')} characters`),
);

/** A message to the lead, written on their page; sent from MAIL_FROM under the writer's name. */
export const leadEmailRequestSchema = z
  .object({
    /** The lead's address unless another is given (another of theirs). */
    to: emailSchema.optional(),
    /** Merge fields are filled in for the lead and the writer; an unknown one is refused. */
    subject: messageSubjectSchema,
    body: messageBodySchema,
    /** The email template it was written from, if any (kept with the message). */
    template_id: z.uuid('Invalid template id').optional(),
    /**
     * The message on the lead's timeline this answers (an `email_in` entry's `email_in_id`, or an
     * `email_out` entry's `email_id`): it goes in the same thread, with In-Reply-To naming it.
     */
    in_reply_to: z.uuid('Invalid message id').optional(),
  })
  .meta({ id: 'LeadEmailRequest' });
export type LeadEmailRequest = z.infer<typeof leadEmailRequestSchema>;

export const leadEmailParamsSchema = z.object({ id: z.uuid('Invalid lead id'), emailId: z.uuid('Invalid email id') });

export const leadEmailSchema = z
  .object({
    id: z.uuid(),
    to: z.string(),
    subject: z.string(),
    /** queued (email on), or not_sent with why (email off). */
    status: z.enum(EMAIL_MESSAGE_STATUSES),
    error: z.string().nullable(),
  })
  .meta({ id: 'LeadEmail' });
export type LeadEmail = z.infer<typeof leadEmailSchema>;

export const noteRequestSchema = z.object({ body: noteBodySchema }).meta({ id: 'NoteRequest' });
export type NoteRequest = z.infer<typeof noteRequestSchema>;

export const noteSchema = z
  .object({
    id: z.uuid(),
    lead_id: z.uuid(),
    body: z.string(),
    /** Null once its author's account is gone. */
    author_id: z.uuid().nullable(),
    author_email: z.string().nullable(),
    /** The author's name, as the product shows them. */
    author_name: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Note' });
export type Note = z.infer<typeof noteSchema>;

export const noteParamsSchema = z.object({ id: z.uuid('Invalid lead id'), noteId: z.uuid('Invalid note id') });

/** The visit that brought a submission: first-touch source and what was seen. */
export const visitSchema = z
  .object({
    source: z.string().nullable(),
    utm_source: z.string().nullable(),
    utm_medium: z.string().nullable(),
    utm_campaign: z.string().nullable(),
    landing_page: z.string().nullable(),
    pages_viewed: z.number().int().nullable(),
  })
  .meta({ id: 'Visit' });
export type Visit = z.infer<typeof visitSchema>;

/**
 * The conversation a message belongs to. The timeline shows a thread once, as its newest
 * message; the rest come from `GET /api/leads/{id}/threads/{thread_id}`.
 */
const threadFields = {
  thread_id: z.uuid(),
  /** How many messages the thread holds (1: this one alone). */
  thread_size: z.number().int(),
  /** How many of them are unread replies. */
  thread_unread: z.number().int(),
};

const entryBase = {
  /** Unique within the timeline (a row id, prefixed by its kind where tables could collide). */
  id: z.string(),
  /** When it happened (ISO 8601, UTC). */
  at: z.string(),
  /** The name of the admin who did it, or null: the visitor, the system, or an account since removed. */
  actor: z.string().nullable(),
};

export const timelineEntrySchema = z
  .discriminatedUnion('kind', [
    /** The lead came in: through the public form (with its message and visit) or typed in by staff. */
    z.object({
      ...entryBase,
      kind: z.literal('created'),
      via: z.enum(['form', 'staff', 'import']),
      message: z.string().nullable(),
      visit: visitSchema.nullable(),
    }),
    /** The same person sent the form again (or a merged lead's own submission). */
    z.object({
      ...entryBase,
      kind: z.literal('inquiry'),
      message: z.string().nullable(),
      full_name: z.string().nullable(),
      phone: z.string().nullable(),
      visit: visitSchema.nullable(),
    }),
    z.object({ ...entryBase, kind: z.literal('status'), from_status: leadStatusSchema.nullable(), to_status: leadStatusSchema }),
    z.object({ ...entryBase, kind: z.literal('note'), note: noteSchema }),
    z.object({
      ...entryBase,
      kind: z.literal('appointment'),
      action: z.enum(['scheduled', 'moved', 'cancelled', 'completed', 'no_show']),
      appointment_id: z.string(),
      type: z.string(),
      date: z.string(),
      time: z.string(),
      from_date: z.string().nullable(),
      from_time: z.string().nullable(),
      /** Who did it: staff, or the lead through their booking link. */
      by: z.enum(['staff', 'lead']),
      /** Booked through the link of a repeat form: the name typed on that form (the lead's own details may differ). */
      booked_as: z.string().nullable(),
      /** Why, when staff said: a website booking cancelled (in bulk) as suspected abuse. */
      reason: z.literal('suspected_abuse').optional(),
    }),
    z.object({
      ...entryBase,
      kind: z.literal('email_out'),
      ...threadFields,
      email_id: z.uuid(),
      email_kind: z.string(),
      subject: z.string(),
      to: z.string(),
      status: z.enum(['queued', 'sent', 'failed', 'not_sent']),
      /** Why it failed or was not sent, or why it is being tried again (the mail server's reply when it gave one). */
      error: z.string().nullable(),
      /** What a person wrote, for a message written on the lead's page (the product's own mail: null). */
      body: z.string().nullable(),
    }),
    /** Mail from the lead (or about them) read from the reply mailbox, as text. */
    z.object({
      ...entryBase,
      kind: z.literal('email_in'),
      email_in_id: z.uuid(),
      ...threadFields,
      ...receivedMailFields,
      /**
       * False: not shown to be the lead's ("Sender not verified"): from their address, but neither
       * sent to their own reply address nor seen to pass by the firm's mail host.
       */
      sender_verified: z.boolean(),
      /** Sent by another address than the lead's ("From someone else: <address>"). */
      from_someone_else: z.boolean(),
      unread: z.boolean(),
      /** The message of ours it answers, when it names one. */
      answers_email_id: z.uuid().nullable(),
    }),
    /** The owners before and after, by their names then (an account removed before names existed: its email). */
    z.object({ ...entryBase, kind: z.literal('owner'), from: z.string().nullable(), to: z.string().nullable() }),
    z.object({ ...entryBase, kind: z.literal('follow_up'), on: z.string().nullable(), note: z.string().nullable() }),
    /** A call someone logged: how it went, how long (minutes), what was said. */
    z.object({
      ...entryBase,
      kind: z.literal('call'),
      outcome: z.enum(CALL_OUTCOMES),
      duration_minutes: z.number().int().nullable(),
      notes: z.string().nullable(),
    }),
    /** A task someone marked done: its kind and title then. */
    z.object({ ...entryBase, kind: z.literal('task'), task_type: z.enum(TASK_TYPES), title: z.string().nullable() }),
    /**
     * A move between pipeline stages of one status (a status change is a \`status\` entry), or a
     * deal lost for a reason someone gave: the stages by their names then, the reason.
     */
    z.object({
      ...entryBase,
      kind: z.literal('stage'),
      from: z.string().nullable(),
      to: z.string().nullable(),
      lost_reason: z.string().nullable(),
    }),
    z.object({ ...entryBase, kind: z.literal('merged'), full_name: z.string(), email: z.string() }),
    z.object({ ...entryBase, kind: z.literal('imported'), file: z.string().nullable() }),
  ])
  .meta({ id: 'TimelineEntry' });
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const timelineQuerySchema = z.object({
  /** Entries strictly older than this (the previous page's last `at`), for "Show older". */
  before: storableText().datetime({ offset: true, message: 'Invalid time' }).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

/** A page of one conversation: messages older than the entry `before`. */
export const threadQuerySchema = z.object({
  /** The `id` of the oldest entry shown so far (`email:…` or `email_in:…`), for the next page. */
  before: z
    .string()
    .regex(/^email(_in)?:[0-9a-f-]{36}$/, 'Invalid entry id')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const timelineResponseSchema = z
  .object({ entries: z.array(timelineEntrySchema), has_more: z.boolean() })
  .meta({ id: 'TimelineResponse' });
export type TimelineResponse = z.infer<typeof timelineResponseSchema>;

/** An admin a lead can be assigned to. */
export const adminSummarySchema = z.object({ id: z.uuid(), email: z.string(), display_name: z.string() }).meta({ id: 'AdminSummary' });
export const adminListSchema = z.object({ admins: z.array(adminSummarySchema) }).meta({ id: 'AdminList' });
export type AdminSummary = z.infer<typeof adminSummarySchema>;

/** Log a call (lead page → Log call): how it went, how long, what was said. */
export const logCallRequestSchema = z
  .object({
    outcome: z.enum(CALL_OUTCOMES, { error: 'Choose how the call went' }),
    /** Whole minutes, 0–600 (0 or absent for a call nobody answered). */
    duration_minutes: z
      .number({ error: 'Duration must be whole minutes from 0 to 600' })
      .int('Duration must be whole minutes from 0 to 600')
      .min(0, 'Duration must be whole minutes from 0 to 600')
      .max(CALL_DURATION_MAX, 'Duration must be whole minutes from 0 to 600')
      .optional(),
    notes: storableText({ error: 'Invalid notes' })
      .trim()
      .max(CALL_NOTES_MAX, `Notes must be at most ${CALL_NOTES_MAX.toLocaleString('en-US')} characters`)
      .optional(),
  })
  .meta({ id: 'LogCallRequest' });
export type LogCallRequest = z.infer<typeof logCallRequestSchema>;

export const loggedCallSchema = z
  .object({
    id: z.uuid(),
    outcome: z.enum(CALL_OUTCOMES),
    duration_minutes: z.number().int().nullable(),
    notes: z.string().nullable(),
    at: z.string(),
  })
  .meta({ id: 'LoggedCall' });
export type LoggedCall = z.infer<typeof loggedCallSchema>;
