import * as z from 'zod';
import {
  DATE_RANGE_MESSAGE,
  LEAD_DEAL_LIMITS,
  LEAD_SORTS,
  LEAD_STATUSES,
  LOST_REASON_MAX,
  PROPERTY_TYPES,
  SESSION_ID_PATTERN,
  SORT_DIRECTIONS,
  type LeadSort,
} from '../constants.ts';
import { LEAD_FIELD_RULES, PROPERTY_TYPE_MESSAGES } from '../rules/lead-fields.ts';
import { LEAD_ORIGINS, ORIGIN_VALUE_MAX } from './analytics-report.ts';
import { dateSchema } from './appointment.ts';
import { storableText, zodText } from './text.ts';

export { LEAD_DEAL_LIMITS, LEAD_SORTS, SORT_DIRECTIONS, DATE_RANGE_MESSAGE };
export type { LeadSort };

/**
 * The lead contract. The fields a person types follow the rules in rules/lead-fields.ts,
 * which the browser's forms check with the same messages; the rest is the API's shape.
 */

export const emailSchema = zodText(LEAD_FIELD_RULES.email);

export const propertyTypeSchema = z.enum(PROPERTY_TYPES, { error: PROPERTY_TYPE_MESSAGES.required }).meta({ id: 'PropertyType' });

/** Fields a person types into the public form and the admin Add/Edit Lead forms. */
export const leadFieldsSchema = z
  .object({
    full_name: zodText(LEAD_FIELD_RULES.full_name),
    email: emailSchema,
    phone: zodText(LEAD_FIELD_RULES.phone),
    // Forms send exactly one type; the data model holds a list.
    property_types: z
      .array(propertyTypeSchema, { error: PROPERTY_TYPE_MESSAGES.required })
      .min(1, PROPERTY_TYPE_MESSAGES.required)
      .max(1, PROPERTY_TYPE_MESSAGES.onlyOne),
    message: zodText(LEAD_FIELD_RULES.message).optional().nullable(),
  })
  .meta({ id: 'LeadFields' });
export type LeadFields = z.infer<typeof leadFieldsSchema>;

/**
 * The public form's request. Besides the lead it carries:
 * - `website`: a honeypot input hidden from people; bots fill it in.
 * - `submission_id`: one random id per filled-in form, so a double click or a retry
 *   after a network error stores the lead once (an idempotency key).
 * - `form_token`: the token of GET /api/public/form-token, so the server measures with its
 *   own clock how long the form was open (needed unless LEAD_MIN_FILL_SECONDS is 0).
 * The browser's own `fill_ms` of earlier versions is no longer read (like any unknown key, it is dropped).
 */
export const publicLeadRequestSchema = leadFieldsSchema
  .extend({
    website: storableText().max(500).optional(),
    submission_id: z.uuid('Invalid submission id'),
    form_token: z.string().max(200).optional(),
    /** The visitor's analytics session, so the lead keeps where it came from. */
    analytics_session_id: storableText().regex(SESSION_ID_PATTERN, 'Invalid session id').optional(),
  })
  .meta({ id: 'PublicLeadRequest' });
export type PublicLeadRequest = z.infer<typeof publicLeadRequestSchema>;

export const publicLeadResponseSchema = z
  .object({
    status: z.literal('received'),
    /** The private link's token for booking the call (POST /api/public/bookings), good for 24 hours. */
    booking_token: z.string(),
  })
  .meta({ id: 'PublicLeadResponse' });
export type PublicLeadResponse = z.infer<typeof publicLeadResponseSchema>;

/** GET /api/public/form-token: a token to send back with the form, and when it may be sent. */
export const formTokenResponseSchema = z
  .object({
    form_token: z.string(),
    /** Sent sooner than this after it was handed out, the form is taken for a bot's (LEAD_MIN_FILL_SECONDS). */
    min_age_seconds: z.number().int(),
    /** Older than this, the token is refused: fetch a fresh one (24 hours). */
    max_age_seconds: z.number().int(),
  })
  .meta({ id: 'FormTokenResponse' });
export type FormTokenResponse = z.infer<typeof formTokenResponseSchema>;

/** The 400's message (and its `form_token` field's) for a token that is missing, not ours or expired. */
export const FORM_TOKEN_REFUSED_MESSAGE = 'This form has expired. Please reload the page and send it again.';

export const leadStatusSchema = z.enum(LEAD_STATUSES).meta({ id: 'LeadStatus' });

/** An optional field sent empty ('' or only spaces) is cleared. */
const blankIsNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** The largest estimated fee, in cents ($1,000,000,000). */
export const MAX_FEE_CENTS = 100_000_000_000;

/** What staff add about the deal (never on the public form); all optional, null clears. */
export const leadDealFieldsSchema = z
  .object({
    property_address: z
      .preprocess(
        blankIsNull,
        storableText()
          .trim()
          .max(LEAD_DEAL_LIMITS.propertyAddress, `Property address must be at most ${LEAD_DEAL_LIMITS.propertyAddress} characters`)
          .nullable(),
      )
      .optional(),
    target_closing_date: z.preprocess(blankIsNull, dateSchema.nullable()).optional(),
    /** Whole cents (the form shows dollars), so sums are exact. */
    estimated_fee_cents: z
      .number({ error: 'Estimated fee must be an amount in dollars' })
      .int('Estimated fee must be an amount in dollars')
      .min(0, 'Estimated fee cannot be negative')
      .max(MAX_FEE_CENTS, 'Estimated fee must be at most $1,000,000,000')
      .nullable()
      .optional(),
  })
  .meta({ id: 'LeadDealFields' });
export type LeadDealFields = z.infer<typeof leadDealFieldsSchema>;

/** The next step: a date (the owner is notified that day) and a short text. */
export const followUpFieldsSchema = z
  .object({
    follow_up_on: z.preprocess(blankIsNull, dateSchema.nullable()).optional(),
    follow_up_note: z
      .preprocess(
        blankIsNull,
        storableText()
          .trim()
          .max(LEAD_DEAL_LIMITS.followUpNote, `Next step must be at most ${LEAD_DEAL_LIMITS.followUpNote} characters`)
          .nullable(),
      )
      .optional(),
  })
  .meta({ id: 'FollowUpFields' });

/** A lead as the admin API returns it. */
export const leadSchema = z
  .object({
    id: z.uuid(),
    created_at: z.string(),
    status: leadStatusSchema,
    full_name: z.string(),
    email: z.string(),
    phone: z.string(),
    property_types: z.array(z.string()),
    contacted: z.boolean(),
    message: z.string().nullable(),
    /** Attribution from the visitor's analytics session (public form only). */
    source: z.string().nullable().optional(),
    utm_source: z.string().nullable().optional(),
    utm_medium: z.string().nullable().optional(),
    utm_campaign: z.string().nullable().optional(),
    landing_page: z.string().nullable().optional(),
    pages_viewed: z.number().int().nullable().optional(),
    /** Who works the lead: an admin, or nobody (null). */
    owner_id: z.uuid().nullable(),
    owner_email: z.string().nullable(),
    /** The owner's name, as the product shows them. */
    owner_name: z.string().nullable(),
    property_address: z.string().nullable(),
    target_closing_date: z.string().nullable(),
    estimated_fee_cents: z.number().int().nullable(),
    follow_up_on: z.string().nullable(),
    follow_up_note: z.string().nullable(),
    /** True when it came through the public form: its message is the customer's own words, not editable. */
    from_form: z.boolean(),
    /** When staff cancelled its website bookings as suspected abuse (its badge); null if never. */
    suspected_abuse_at: z.string().nullable(),
    /** Staff marked them Do not email: the lead page cannot send them a message. */
    do_not_email: z.boolean(),
    updated_at: z.string(),
    /** Replies read from the reply mailbox that nobody has read yet (the lead's page shows them). */
    unread_replies: z.number().int(),
    /** Their newest reply that seems to ask us to stop writing, while they are not marked Do not email (staff confirm). */
    stop_request: z.object({ id: z.uuid(), subject: z.string(), received_at: z.string() }).nullable(),
    /** The pipeline stage it is in (Settings → Pipeline); `status` is always that stage's status. */
    stage_id: z.uuid(),
    stage_name: z.string(),
    /** Why the deal was lost, for a Dropped lead ("Not given" when only the status was set); null otherwise. */
    lost_reason: z.string().nullable(),
  })
  .meta({ id: 'Lead' });
export type Lead = z.infer<typeof leadSchema>;

/** Admin: Add Lead. Status is not sent: a new lead is always New. */
export const createLeadRequestSchema = leadFieldsSchema.extend(leadDealFieldsSchema.shape).meta({ id: 'CreateLeadRequest' });
export type CreateLeadRequest = z.infer<typeof createLeadRequestSchema>;

/**
 * Admin: Edit Lead. Only the fields sent are changed, so two people editing different
 * fields of one lead at once do not undo each other's work.
 */
export const updateLeadRequestSchema = leadFieldsSchema
  .extend({
    contacted: z.boolean({ error: 'Contacted must be Yes or No' }),
    status: leadStatusSchema,
    owner_id: z.uuid('Invalid owner').nullable(),
    do_not_email: z.boolean({ error: 'Do not email must be Yes or No' }),
    /** A pipeline stage: the status becomes the stage's (a `status` that differs is refused). */
    stage_id: z.uuid('Invalid stage'),
    /** One of the firm's lost reasons: required with a Dropped `stage_id`, refused with any other. */
    lost_reason: storableText({ error: 'Choose why the deal was lost' })
      .trim()
      .min(1, { message: 'Choose why the deal was lost', abort: true })
      .max(LOST_REASON_MAX, 'Choose one of the lost reasons in Settings → Pipeline'),
    ...leadDealFieldsSchema.shape,
    ...followUpFieldsSchema.shape,
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to update' })
  // "Contacted" is derived from the status (contacted = past New): both sent must agree.
  .refine((body) => body.status === undefined || body.contacted === undefined || body.contacted === (body.status !== 'New'), {
    message: 'Contacted must be Yes unless the status is New',
    path: ['contacted'],
  })
  .refine((body) => !body.follow_up_note || body.follow_up_on, { message: 'Choose a date for the next step', path: ['follow_up_on'] })
  .meta({ id: 'UpdateLeadRequest' });
export type UpdateLeadRequest = z.infer<typeof updateLeadRequestSchema>;

export const leadIdParamSchema = z.object({ id: z.uuid('Invalid lead id') });

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), z.enum(values).optional());

/** Most leads one bulk action takes. */
export const MAX_SELECTED_LEADS = 500;
/**
 * Most leads one "Export selected" names: its ids travel in the URL, and 200 ids (7.4 KB) stay
 * well inside a server's request-line limit (Node's is 16 KB). A page holds at most 100.
 */
export const MAX_EXPORT_IDS = 200;

/** An optional date filter: '' is no filter. */
const optionalDate = z.preprocess((v) => (v === '' ? undefined : v), dateSchema.optional());

/**
 * The Leads Manager's view: search, filters, sort and page, as they appear in the URL.
 * `owner` is `me`, `none` (unassigned) or an admin's id; absent means anyone. The created
 * dates are days in the business time zone, both included.
 */
export const leadListQuerySchema = z.object({
  search: storableText().trim().max(200, 'Search must be at most 200 characters').optional(),
  status: optionalEnum(LEAD_STATUSES),
  property_type: optionalEnum(PROPERTY_TYPES),
  owner: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.union([z.enum(['me', 'none']), z.uuid()], { error: 'Owner must be me, none or an admin id' }).optional(),
  ),
  created_from: optionalDate,
  created_to: optionalDate,
  /**
   * The leads of one row of the Analytics sources table: where they came from (`origin`, with
   * `origin_value` for a referring site, UTM or landing page), and the days of the visit that
   * brought them (`visit_from`/`visit_to`; for offline and unrecorded leads, the day they were added).
   */
  origin: optionalEnum(LEAD_ORIGINS),
  origin_value: storableText().max(ORIGIN_VALUE_MAX, `Origin value must be at most ${ORIGIN_VALUE_MAX} characters`).optional(),
  visit_from: optionalDate,
  visit_to: optionalDate,
  sort: z.preprocess((v) => (v === '' ? undefined : v), z.enum(LEAD_SORTS).default('created')),
  dir: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SORT_DIRECTIONS).optional()),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type LeadListQuery = z.infer<typeof leadListQuerySchema>;

/** Lead ids as a query parameter: comma-separated, 1 to MAX_EXPORT_IDS. */
const leadIdListParam = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.split(',').map((id) => id.trim())) : v),
  z.array(z.uuid('Invalid lead id')).max(MAX_EXPORT_IDS, `Choose at most ${MAX_EXPORT_IDS} leads`).optional(),
);

/** The CSV export: the list's filters and sort, or only the leads named in `ids` (with the filters too). */
export const leadExportQuerySchema = leadListQuerySchema.omit({ page: true, page_size: true }).extend({ ids: leadIdListParam });
export type LeadExportQuery = z.infer<typeof leadExportQuerySchema>;

const bulkIds = z
  .array(z.uuid('Invalid lead id'), { error: 'Choose the leads' })
  .min(1, 'Choose at least one lead')
  .max(MAX_SELECTED_LEADS, `Choose at most ${MAX_SELECTED_LEADS} leads`);

/** POST /api/leads/bulk: one action on the chosen leads, in one transaction. */
export const bulkLeadRequestSchema = z
  .discriminatedUnion(
    'action',
    [
      z.object({ ids: bulkIds, action: z.literal('status'), status: leadStatusSchema }),
      z.object({ ids: bulkIds, action: z.literal('assign'), owner_id: z.uuid('Invalid owner').nullable() }),
      z.object({ ids: bulkIds, action: z.literal('delete') }),
    ],
    { error: 'Action must be status, assign or delete' },
  )
  .meta({ id: 'BulkLeadRequest' });
export type BulkLeadRequest = z.infer<typeof bulkLeadRequestSchema>;

/** How many of the chosen leads the action found (ids of leads already gone are not counted). */
export const bulkLeadResponseSchema = z.object({ updated: z.number().int() }).meta({ id: 'BulkLeadResponse' });
export type BulkLeadResponse = z.infer<typeof bulkLeadResponseSchema>;

export const leadListResponseSchema = z
  .object({
    leads: z.array(leadSchema),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .meta({ id: 'LeadListResponse' });
export type LeadListResponse = z.infer<typeof leadListResponseSchema>;

export const leadStatusChangeSchema = z
  .object({
    from_status: leadStatusSchema.nullable(),
    to_status: leadStatusSchema,
    changed_at: z.string(),
    /** The name of the admin who changed it; null for the form, the system or a removed account. */
    changed_by: z.string().nullable(),
  })
  .meta({ id: 'LeadStatusChange' });
export type LeadStatusChange = z.infer<typeof leadStatusChangeSchema>;

export const leadDetailSchema = leadSchema.extend({ status_history: z.array(leadStatusChangeSchema) }).meta({ id: 'LeadDetail' });
export type LeadDetail = z.infer<typeof leadDetailSchema>;
