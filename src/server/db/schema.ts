import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  jsonb,
  integer,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
  customType,
} from 'drizzle-orm/pg-core';

/** Bytes as PostgreSQL keeps them (an attachment's content). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

// One schema for PGlite and PostgreSQL (nothing newer than PostgreSQL 15).
// Field names are the product's data model (docs/architecture.md); the rules of
// docs/product-rules.md live in the database too, as CHECK constraints, NOT NULLs and
// foreign keys.

/**
 * The product's clock (db/functions/crm_now.sql): now(), unless a test set the database's clock.
 * Every default a query compares with is on it, so a row a test writes is dated on the test's clock.
 */
const crmNow = sql`crm_now()`;
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().default(crmNow);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    // The name the product shows for this person (1 to 80 characters, trimmed), and an optional
    // phone: asked when the account is made, changed on the account page (src/shared/rules/profile.ts).
    display_name: text('display_name').notNull(),
    phone: text('phone'),
    password_hash: text('password_hash').notNull(),
    created_at: createdAt(),
    // Email preferences, changed on the account page.
    email_new_leads: boolean('email_new_leads').notNull().default(true),
    email_appointments: boolean('email_appointments').notNull().default(false),
    // The Monday analytics report by email (admins choose it; off until they do).
    email_weekly_report: boolean('email_weekly_report').notNull().default(false),
    // "Jane Doe replied" by email too, for the leads they own (or every lead with no owner).
    email_replies: boolean('email_replies').notNull().default(false),
    // The morning email listing this person's tasks due that day (off until they choose it).
    email_task_digest: boolean('email_task_digest').notNull().default(false),
    // Added under the messages this person writes to leads ('' = none), after "-- ".
    email_signature: text('email_signature').notNull().default(''),
    // Owners manage the team and the settings; staff do everything else. A trigger keeps at
    // least one active owner once anyone exists (drizzle/0016_team_accounts.sql).
    role: text('role').notNull().default('staff'),
    // A deactivated account cannot sign in; its sessions and calendar feed are gone.
    deactivated_at: timestamp('deactivated_at', { withTimezone: true }),
    last_sign_in_at: timestamp('last_sign_in_at', { withTimezone: true }),
    password_changed_at: timestamp('password_changed_at', { withTimezone: true }).notNull().default(crmNow),
    // Two-factor (TOTP, RFC 6238): the base32 secret once confirmed (a pending one while
    // setting up), and the last time step accepted, so a code cannot be used twice.
    totp_secret: text('totp_secret'),
    totp_pending_secret: text('totp_pending_secret'),
    totp_enabled_at: timestamp('totp_enabled_at', { withTimezone: true }),
    totp_last_step: bigint('totp_last_step', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    check('users_role_check', sql`${t.role} in ('owner', 'staff')`),
    check(
      'users_display_name_check',
      sql`char_length(${t.display_name}) between 1 and 80 and ${t.display_name} = btrim(${t.display_name})`,
    ),
    check('users_phone_check', sql`char_length(${t.phone}) between 1 and 40`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    // SHA-256 of the cookie's token: a database leak does not leak live sessions.
    token_hash: text('token_hash').primaryKey(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    last_seen_at: timestamp('last_seen_at', { withTimezone: true }).notNull().default(crmNow),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    // A name for the session that is not its secret (the account page lists and ends sessions by it).
    id: uuid('id').notNull().defaultRandom(),
    // Where it was started from, for the account page's list.
    ip: text('ip'),
    user_agent: text('user_agent'),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.user_id),
    index('sessions_expires_at_idx').on(t.expires_at),
    uniqueIndex('sessions_id_key').on(t.id),
  ],
);

/**
 * API keys (Settings → Integrations): a program calls the API as the person who made the key,
 * within its scopes. Only the SHA-256 of the key is kept (as for sessions); `prefix` is its
 * first characters, to recognise it in the list. Revoking deletes the row; so do the maker's
 * deactivation, removal and demotion (`revokeKeysOf`), and a deleted account's keys cascade.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    key_hash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    last_used_ip: text('last_used_ip'),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.key_hash),
    index('api_keys_user_id_idx').on(t.user_id),
    check('api_keys_name_check', sql`length(${t.name}) between 1 and 60`),
    check('api_keys_scopes_check', sql`cardinality(${t.scopes}) between 1 and 6`),
  ],
);

/**
 * Single-use links sent to a person: an invitation to join the team (72 hours) or a password
 * reset (30 minutes). Only the SHA-256 of the link's token is stored.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    token_hash: text('token_hash').primaryKey(),
    kind: text('kind').notNull(),
    email: text('email').notNull(),
    // The role an invitation gives.
    role: text('role'),
    // The account a password reset is for.
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    // An invitation withdrawn by an owner before it was used.
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    check('account_tokens_kind_check', sql`${t.kind} in ('invite', 'password_reset')`),
    check('account_tokens_role_check', sql`${t.role} is null or ${t.role} in ('owner', 'staff')`),
    index('account_tokens_kind_email_idx').on(t.kind, t.email),
    index('account_tokens_user_id_idx').on(t.user_id),
  ],
);

/** Two-factor recovery codes: ten per account, each usable once; only their hashes are kept. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    created_at: createdAt(),
    used_at: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user_id_idx').on(t.user_id)],
);

/** Browsers that skip the two-factor step for 30 days ("remember this device"); the cookie's token is hashed. */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    token_hash: text('token_hash').primaryKey(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    user_agent: text('user_agent'),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('trusted_devices_user_id_idx').on(t.user_id)],
);

/** A password accepted, the two-factor code still to come: a few minutes to send it. */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    token_hash: text('token_hash').primaryKey(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    // The address (rate-limit key: IPv4, or IPv6 /64) the password step came from: a new
    // challenge replaces only that address's, so a stranger's cannot end the owner's.
    source: text('source').notNull().default(''),
  },
  (t) => [index('sign_in_challenges_user_id_idx').on(t.user_id)],
);

/** The team's own settings: one row. */
export const teamSettings = pgTable(
  'team_settings',
  {
    id: integer('id').primaryKey().default(1),
    // Staff without two-factor are sent to set it up at their next sign-in.
    require_two_factor: boolean('require_two_factor').notNull().default(false),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().default(crmNow),
    updated_by: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('team_settings_one_row', sql`${t.id} = 1`)],
);

/**
 * Who did what, when, from where. Written in the same transaction as the change it records;
 * never changed afterwards (a trigger refuses updates, but for the redaction of an erased
 * lead's values), deleted only past AUDIT_RETENTION_DAYS.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().default(crmNow),
    actor_id: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    // The actor's email and name then: kept when the account is removed (the log shows the
    // account's current name while it exists).
    actor_email: text('actor_email'),
    actor_name: text('actor_name'),
    action: text('action').notNull(),
    target_type: text('target_type'),
    target_id: text('target_id'),
    details: jsonb('details').notNull().default(sql`'{}'::jsonb`),
    ip: text('ip'),
    user_agent: text('user_agent'),
    // The API key's name when the act came through one (Settings → Integrations); null for a session.
    api_key_name: text('api_key_name'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at.desc()),
    index('audit_log_actor_at_idx').on(t.actor_id, t.at.desc()),
    index('audit_log_action_at_idx').on(t.action, t.at.desc()),
    index('audit_log_target_idx').on(t.target_type, t.target_id),
  ],
);

/**
 * The firm's pipeline: stages it names, in order within each of the four statuses (New,
 * Contacted, Converted, Dropped), so everything the statuses drive keeps working. Each status
 * keeps at least one stage. Open stages (New, Contacted) carry a win probability for the
 * forecast.
 */
export const pipelineStages = pgTable(
  'pipeline_stages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    status: text('status').notNull(),
    position: integer('position').notNull(),
    probability: integer('probability'),
    created_at: createdAt(),
  },
  (t) => [
    check('pipeline_stages_status_check', sql`${t.status} in ('New', 'Contacted', 'Converted', 'Dropped')`),
    check('pipeline_stages_name_check', sql`length(${t.name}) between 1 and 60`),
    check(
      'pipeline_stages_probability_check',
      sql`${t.probability} is null or (${t.probability} between 0 and 100 and ${t.status} in ('New', 'Contacted'))`,
    ),
    uniqueIndex('pipeline_stages_name_key').on(sql`lower(${t.name})`),
    index('pipeline_stages_order_idx').on(t.status, t.position),
  ],
);

/** Why deals are lost, as the firm names them: choosing a Dropped stage asks for one. */
export const lostReasons = pgTable(
  'lost_reasons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    check('lost_reasons_name_check', sql`length(${t.name}) between 1 and 80`),
    uniqueIndex('lost_reasons_name_key').on(sql`lower(${t.name})`),
  ],
);

export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    created_at: createdAt(),
    status: text('status').notNull().default('New'),
    full_name: text('full_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    // The phone's digits alone, for search by number however it was typed ("(410) 555-0142" → 4105550142).
    phone_digits: text('phone_digits').notNull().generatedAlwaysAs(sql`regexp_replace(phone, '[^0-9]', '', 'g')`),
    property_types: text('property_types').array().notNull(),
    // Derived from the status, so the two can never disagree: a lead is contacted once it is past New.
    contacted: boolean('contacted').notNull().generatedAlwaysAs(sql`status <> 'New'`),
    message: text('message'),
    // Idempotency key of a public form submission: a retry stores nothing twice.
    submission_id: uuid('submission_id'),
    // Attribution, copied from the visitor's analytics session when the public form is sent.
    analytics_session_id: text('analytics_session_id'),
    source: text('source'),
    utm_source: text('utm_source'),
    utm_medium: text('utm_medium'),
    utm_campaign: text('utm_campaign'),
    landing_page: text('landing_page'),
    pages_viewed: integer('pages_viewed'),
    // The hour of that session's first page view (first touch): the analytics funnel and
    // sources count the lead in the period of the visit that brought it.
    visit_hour: timestamp('visit_hour', { withTimezone: true }),
    // The workspace: who works the lead (nobody when null), what the deal is, and the next step.
    owner_id: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    property_address: text('property_address'),
    target_closing_date: date('target_closing_date', { mode: 'string' }),
    // Whole cents, so sums are exact.
    estimated_fee_cents: bigint('estimated_fee_cents', { mode: 'number' }),
    // The next step: the lead's earliest open task, its day in the business time zone and its
    // title, kept by the task writes (db/queries/lead-tasks-queries.ts) so lists sort and filter by it.
    follow_up_on: date('follow_up_on', { mode: 'string' }),
    follow_up_note: text('follow_up_note'),
    // When staff last cancelled its website bookings as suspected abuse (the lead's badge).
    suspected_abuse_at: timestamp('suspected_abuse_at', { withTimezone: true }),
    // The token in the reply address of the messages staff write to the lead (MAIL_REPLY_TO with
    // +token), made with the first of them: replies find their lead by it.
    reply_token: text('reply_token'),
    // Staff marked the lead Do not email (they asked not to be written to): nobody can send them
    // a message from the product's lead page.
    do_not_email: boolean('do_not_email').notNull().default(false),
    // The pipeline stage the lead is in; its status is always the stage's (trigger
    // leads_stage_sync, migration 0046): setting the status alone moves the lead to that status's
    // first stage, setting the stage sets the status.
    stage_id: uuid('stage_id')
      .notNull()
      .references(() => pipelineStages.id, { onDelete: 'restrict' }),
    // Why the deal was lost, for a lead in a Dropped stage ('Not given' when only the status was
    // set); null for every other status.
    lost_reason: text('lost_reason'),
    // When the lead entered its stage (the board's age in stage), set by leads_stage_sync.
    stage_entered_at: timestamp('stage_entered_at', { withTimezone: true }).notNull().default(crmNow),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().default(crmNow),
  },
  (t) => [
    check('leads_status_check', sql`${t.status} in ('New', 'Contacted', 'Converted', 'Dropped')`),
    check('leads_lost_reason_check', sql`(${t.status} = 'Dropped') = (${t.lost_reason} is not null)`),
    index('leads_stage_idx').on(t.stage_id, t.created_at.desc()),
    // The board's column pages: a stage's leads, the latest to enter it first (db/queries/pipeline-board-queries.ts).
    index('leads_stage_entered_idx').on(t.stage_id, t.stage_entered_at.desc(), t.id.desc()),
    // The forecast (the Overview's Expected fees, the board's): only leads with a fee count, read
    // from this index alone rather than every open lead's row.
    index('leads_stage_fee_idx').on(t.stage_id, t.estimated_fee_cents).where(sql`${t.estimated_fee_cents} is not null`),
    check(
      'leads_property_types_check',
      sql`cardinality(${t.property_types}) >= 1 and ${t.property_types} <@ array['single-family', 'multifamily', 'commercial', 'land', 'other']::text[]`,
    ),
    check('leads_full_name_check', sql`length(${t.full_name}) between 1 and 200`),
    check('leads_email_check', sql`length(${t.email}) between 3 and 254`),
    check('leads_phone_check', sql`length(${t.phone}) between 1 and 40`),
    check('leads_message_check', sql`${t.message} is null or length(${t.message}) <= 5000`),
    check('leads_property_address_check', sql`${t.property_address} is null or length(${t.property_address}) between 1 and 500`),
    check('leads_estimated_fee_check', sql`${t.estimated_fee_cents} is null or ${t.estimated_fee_cents} between 0 and 100000000000`),
    check('leads_follow_up_note_check', sql`${t.follow_up_note} is null or length(${t.follow_up_note}) <= 200`),
    check('leads_follow_up_note_needs_date', sql`${t.follow_up_note} is null or ${t.follow_up_on} is not null`),
    uniqueIndex('leads_submission_id_key').on(t.submission_id),
    uniqueIndex('leads_reply_token_key').on(t.reply_token).where(sql`${t.reply_token} is not null`),
    index('leads_created_at_idx').on(t.created_at.desc(), t.id.desc()),
    index('leads_status_created_at_idx').on(t.status, t.created_at.desc()),
    // Substring search (ILIKE '%term%') on name, email and phone: trigram GIN indexes.
    index('leads_full_name_trgm_idx').using('gin', sql`${t.full_name} gin_trgm_ops`),
    index('leads_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    index('leads_phone_trgm_idx').using('gin', sql`${t.phone} gin_trgm_ops`),
    // Digits inside digits (LIKE '%4105550142%'): a substring or a suffix of the number.
    index('leads_phone_digits_trgm_idx').using('gin', sql`${t.phone_digits} gin_trgm_ops`),
    // The property type filter: property_types @> array[type].
    index('leads_property_types_idx').using('gin', t.property_types),
    // The analytics conversion rate: leads with a session, by creation time.
    // The same person again (public form, import, merge): leads by exact email (stored lower-case).
    index('leads_email_idx').on(t.email),
    index('leads_owner_created_idx').on(t.owner_id, t.created_at.desc()),
    index('leads_full_name_idx').on(t.full_name, t.id),
    index('leads_follow_up_on_idx').on(t.follow_up_on, t.id).where(sql`${t.follow_up_on} is not null`),
    index('leads_analytics_session_created_idx').on(t.created_at).where(sql`${t.analytics_session_id} is not null`),
    index('leads_visit_hour_idx').on(t.visit_hour).where(sql`${t.visit_hour} is not null`),
  ],
);

/** Every status change of a lead, with who made it: the Edit Lead history and speed to lead. */
export const leadStatusChanges = pgTable(
  'lead_status_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lead_id: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    from_status: text('from_status'),
    to_status: text('to_status').notNull(),
    // Null when the change came from outside the dashboard (the public form), or the admin was deleted.
    changed_by: uuid('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changed_at: timestamp('changed_at', { withTimezone: true }).notNull().default(crmNow),
  },
  (t) => [
    check('lead_status_changes_to_check', sql`${t.to_status} in ('New', 'Contacted', 'Converted', 'Dropped')`),
    index('lead_status_changes_lead_idx').on(t.lead_id, t.changed_at),
    index('lead_status_changes_to_changed_idx').on(t.to_status, t.changed_at),
  ],
);

/**
 * A lead's timeline entries other than status changes, notes and emails (which have their own
 * tables): a repeated inquiry through the public form (its message and visit), appointments
 * scheduled, moved and cancelled (written by a trigger on appointments, whoever changed them),
 * owner and follow-up changes, merges and imports. `data` holds what the entry says.
 */
export const leadEvents = pgTable(
  'lead_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lead_id: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    // The admin who did it; null for the visitor (public form, booking link) or a deleted admin.
    actor_id: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    data: jsonb('data').notNull().default({}),
    // A repeated public submission's idempotency key (like leads.submission_id).
    submission_id: uuid('submission_id'),
    created_at: createdAt(),
  },
  (t) => [
    check(
      'lead_events_kind_check',
      sql`${t.kind} in ('inquiry', 'appointment', 'owner', 'follow_up', 'merged', 'imported', 'stage', 'call', 'task')`,
    ),
    index('lead_events_lead_created_idx').on(t.lead_id, t.created_at.desc()),
    uniqueIndex('lead_events_submission_id_key').on(t.submission_id),
  ],
);

/**
 * Every stage a lead entered, and from where, written by a trigger on leads (migration 0050):
 * the Analytics stage-to-stage conversion. A removed stage leaves its rows with a null stage.
 */
export const leadStageChanges = pgTable(
  'lead_stage_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lead_id: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    from_stage_id: uuid('from_stage_id').references(() => pipelineStages.id, { onDelete: 'set null' }),
    to_stage_id: uuid('to_stage_id').references(() => pipelineStages.id, { onDelete: 'set null' }),
    changed_at: timestamp('changed_at', { withTimezone: true }).notNull().default(crmNow),
  },
  (t) => [index('lead_stage_changes_lead_idx').on(t.lead_id, t.changed_at)],
);

/**
 * A lead's tasks (Call, Email, Meeting, To-do): what is due when, and for whom (nobody: every
 * admin is told). The earliest open one is the lead's next step. Its due time is told once
 * (`notified_at`); a new due time is told again.
 */
export const leadTasks = pgTable(
  'lead_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lead_id: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    // Null for a next step set without text ("Follow up with Jane Doe").
    title: text('title'),
    due_at: timestamp('due_at', { withTimezone: true }).notNull(),
    assignee_id: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    done_at: timestamp('done_at', { withTimezone: true }),
    done_by: uuid('done_by').references(() => users.id, { onDelete: 'set null' }),
    notified_at: timestamp('notified_at', { withTimezone: true }),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().default(crmNow),
  },
  (t) => [
    check('lead_tasks_type_check', sql`${t.type} in ('call', 'email', 'meeting', 'todo')`),
    check('lead_tasks_title_check', sql`${t.title} is null or char_length(${t.title}) between 1 and 200`),
    check('lead_tasks_done_check', sql`${t.done_by} is null or ${t.done_at} is not null`),
    index('lead_tasks_lead_idx').on(t.lead_id, t.due_at, t.id),
    // My tasks: open ones by due time, done ones newest first; per assignee and for everyone.
    index('lead_tasks_open_assignee_idx').on(t.assignee_id, t.due_at, t.id).where(sql`${t.done_at} is null`),
    index('lead_tasks_open_due_idx').on(t.due_at, t.id).where(sql`${t.done_at} is null`),
    index('lead_tasks_done_assignee_idx').on(t.assignee_id, t.done_at.desc(), t.id).where(sql`${t.done_at} is not null`),
    index('lead_tasks_done_idx').on(t.done_at.desc(), t.id).where(sql`${t.done_at} is not null`),
  ],
);

/** What staff wrote about a lead: plain text, editable and deletable by its author. */
export const leadNotes = pgTable(
  'lead_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lead_id: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    author_id: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().default(crmNow),
  },
  (t) => [
    check('lead_notes_body_check', sql`length(${t.body}) between 1 and 20000`),
    index('lead_notes_lead_created_idx').on(t.lead_id, t.created_at.desc()),
  ],
);

/**
 * Email templates (Settings → Email templates): what the owners wrote for everyone to start a
 * message from, merge fields and all. Names are unique whatever their case. Three defaults come
 * with a new database (migration 0039); the owners change or remove them like any other.
 */
export const emailTemplates = pgTable(
  'email_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().default(crmNow),
    updated_by: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('email_templates_name_key').using('btree', sql`lower(${t.name})`),
    check('email_templates_name_check', sql`char_length(${t.name}) between 1 and 80`),
    check('email_templates_subject_check', sql`char_length(${t.subject}) between 1 and 200`),
    check('email_templates_body_check', sql`char_length(${t.body}) between 1 and 20000`),
  ],
);

export const appointments = pgTable(
  'appointments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // Deleting a lead keeps its appointments; they then show "Unknown Lead".
    lead_id: uuid('lead_id').references(() => leads.id, { onDelete: 'set null' }),
    date: date('date', { mode: 'string' }).notNull(),
    time: time('time').notNull(),
    type: text('type').notNull(),
    notes: text('notes'),
    created_at: createdAt(),
    // Set once when the reminder job has notified the admins: never twice, across restarts and processes.
    reminder_sent_at: timestamp('reminder_sent_at', { withTimezone: true }),
    // The iCalendar SEQUENCE of the invitation the lead holds: one more at every change the lead is told of.
    sequence: integer('sequence').notNull().default(0),
    // Set once the lead's email reminder is queued (or when none is needed); cleared by a reschedule.
    lead_reminder_sent_at: timestamp('lead_reminder_sent_at', { withTimezone: true }),
    duration_minutes: integer('duration_minutes').notNull().default(30),
    // Meeting link for Zoom, address for On-site.
    location: text('location'),
    status: text('status').notNull().default('scheduled'),
    // Who cancelled it: the lead (through the booking link) or staff.
    cancelled_by: text('cancelled_by'),
    // 'booking' when a visitor booked it on the website.
    source: text('source').notNull().default('staff'),
    // Booked through the link of a repeat form (an email we already knew): that inquiry, whose
    // typed name and phone staff see and mail names, not the lead's stored ones.
    inquiry_id: uuid('inquiry_id').references(() => leadEvents.id, { onDelete: 'set null' }),
    // Minutes kept free after it (the booking buffer when it was made); part of `blocks`.
    buffer_minutes: integer('buffer_minutes').notNull().default(0),
    // Staff scheduled it over another appointment on purpose: left out of the no-overlap constraint.
    overlap_allowed: boolean('overlap_allowed').notNull().default(false),
    // The admin who made the latest change (null: the visitor through the booking link, or the
    // reminder job); the lead's timeline names them.
    changed_by: uuid('changed_by').references(() => users.id, { onDelete: 'set null' }),
    // A website booking's client network (IPv4 /24, IPv6 /64), so staff can cancel a flood of
    // bookings from one network at once; created_at is when it was made. Null for staff's
    // appointments; cleared 30 days after the call (docs/security.md).
    booked_network: text('booked_network'),
    // The IANA time zone of the visitor who booked it on the website (their browser's), kept so
    // the mails about it show their own clock beside the firm's; a move from their page updates it.
    // Null for staff's appointments and for visitors whose browser did not say.
    visitor_time_zone: text('visitor_time_zone'),
    // The team member who takes the call: one person's calls never overlap (below). Null once
    // that account is deleted (the call then blocks nobody's time).
    host_id: uuid('host_id').references(() => users.id, { onDelete: 'set null' }),
    // Not declared here (drizzle-kit has no exclusion constraints), made by migrations 0011 and 0030:
    //   blocks tsrange GENERATED ALWAYS AS (wall-clock start to end + buffer) STORED, and
    //   appointments_no_overlap EXCLUDE USING gist (host_id WITH =, blocks WITH &&)
    //     WHERE scheduled and not overlap_allowed (btree_gist gives uuid its = in a gist index).
  },
  (t) => [
    check('appointments_type_check', sql`${t.type} in ('Call', 'Zoom', 'On-site')`),
    check('appointments_notes_check', sql`${t.notes} is null or length(${t.notes}) <= 5000`),
    check('appointments_status_check', sql`${t.status} in ('scheduled', 'cancelled', 'completed', 'no_show')`),
    check('appointments_cancelled_by_check', sql`${t.cancelled_by} is null or ${t.cancelled_by} in ('lead', 'staff')`),
    check('appointments_source_check', sql`${t.source} in ('staff', 'booking')`),
    check('appointments_duration_check', sql`${t.duration_minutes} between 5 and 720`),
    check('appointments_buffer_check', sql`${t.buffer_minutes} between 0 and 240`),
    check('appointments_location_check', sql`${t.location} is null or length(${t.location}) <= 500`),
    index('appointments_date_time_idx').on(t.date, t.time),
    index('appointments_lead_id_idx').on(t.lead_id),
    index('appointments_inquiry_id_idx').on(t.inquiry_id).where(sql`${t.inquiry_id} is not null`),
    index('appointments_reminder_due_idx').on(t.date, t.time).where(sql`${t.reminder_sent_at} is null`),
    index('appointments_lead_reminder_due_idx').on(t.date, t.time).where(sql`${t.lead_reminder_sent_at} is null`),
    index('appointments_booked_network_idx').on(t.booked_network, t.date).where(sql`${t.booked_network} is not null`),
    index('appointments_host_date_idx').on(t.host_id, t.date),
    // When a visitor last booked each person (a website call's host is chosen by it, when several are free).
    index('appointments_host_booked_idx').on(t.host_id, t.created_at).where(sql`${t.source} = 'booking'`),
  ],
);

/**
 * When a team member takes calls (the account page's Working hours). No row: not bookable, the
 * firm's booking hours, federal holidays off. `hours` null follows the firm's booking hours;
 * else seven lists (Monday first) of wall-clock stretches in the business time zone
 * (src/shared/schemas/availability.ts).
 */
export const userAvailability = pgTable('user_availability', {
  user_id: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  bookable: boolean('bookable').notNull().default(false),
  hours: jsonb('hours'),
  days_off: jsonb('days_off').notNull().default(sql`'[]'::jsonb`),
  holidays_off: boolean('holidays_off').notNull().default(true),
  // A personal video room (a Zoom personal meeting link, or any https link): a Zoom call booked with them takes it as its location.
  meeting_link: text('meeting_link'),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().default(crmNow),
});

/**
 * A team member's outside calendar (the account page's Calendars): an iCal link read for busy
 * times, or a CalDAV account. `secret` holds what reaches it (the link, which is itself a
 * password, or the server, username and password) encrypted with the credentials key, never
 * in the clear (src/server/lib/credentials.ts). `label` is what may be shown: the host.
 * Sync state: the last success, the last attempt and its error in words; `claimed_until` lets
 * one process at a time sync it.
 */
export const calendarConnections = pgTable(
  'calendar_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    label: text('label').notNull(),
    secret: text('secret').notNull(),
    // CalDAV: the calendars found on the account, which count as busy, which receives booked calls.
    calendars: jsonb('calendars').notNull().default(sql`'[]'::jsonb`),
    busy_calendars: jsonb('busy_calendars').notNull().default(sql`'[]'::jsonb`),
    write_calendar: text('write_calendar'),
    last_synced_at: timestamp('last_synced_at', { withTimezone: true }),
    last_attempt_at: timestamp('last_attempt_at', { withTimezone: true }),
    last_error: text('last_error'),
    warnings: jsonb('warnings').notNull().default(sql`'[]'::jsonb`),
    // Set when the person was told it is failing; cleared by the next success.
    failure_notified_at: timestamp('failure_notified_at', { withTimezone: true }),
    busy_digest: text('busy_digest'),
    claimed_until: timestamp('claimed_until', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    check('calendar_connections_kind_check', sql`${t.kind} in ('ics', 'caldav')`),
    index('calendar_connections_user_idx').on(t.user_id),
    index('calendar_connections_due_idx').on(t.last_attempt_at),
  ],
);

/**
 * The busy times last read from each outside calendar, as intervals (no titles, no details):
 * what the open times subtract, without reading the calendar per request.
 */
export const calendarBusy = pgTable(
  'calendar_busy',
  {
    connection_id: uuid('connection_id')
      .notNull()
      .references(() => calendarConnections.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    starts_at: timestamp('starts_at', { withTimezone: true }).notNull(),
    ends_at: timestamp('ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // A connection's intervals are merged, so no two start together.
    primaryKey({ columns: [t.connection_id, t.starts_at] }),
    index('calendar_busy_user_idx').on(t.user_id, t.starts_at),
    check('calendar_busy_order_check', sql`${t.ends_at} > ${t.starts_at}`),
  ],
);

/**
 * Booked calls copied into their host's CalDAV calendar (the connection's write calendar): the
 * state wanted (`version`, one more at every change of the appointment that the copy shows)
 * against the state written (`written_version`, and where: `event_url`). A writer claims a row
 * whose two versions differ, writes the appointment as it is then (or removes the copy), and
 * records the version it wrote; a killed writer's claim lapses and the row is written again,
 * to the same resource. No foreign key to appointments: a deleted one's copy must still go.
 */
export const calendarWrites = pgTable(
  'calendar_writes',
  {
    appointment_id: uuid('appointment_id').notNull(),
    connection_id: uuid('connection_id')
      .notNull()
      .references(() => calendarConnections.id, { onDelete: 'cascade' }),
    // Set at the first write and kept: the resource's name comes from it.
    uid: text('uid'),
    event_url: text('event_url'),
    // The lead was erased: the copy goes, whatever the appointment says (it stays, without them).
    removed: boolean('removed').notNull().default(false),
    version: integer('version').notNull().default(1),
    written_version: integer('written_version').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().default(crmNow),
    last_error: text('last_error'),
    claimed_until: timestamp('claimed_until', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.appointment_id, t.connection_id] }),
    index('calendar_writes_due_idx').on(t.next_attempt_at).where(sql`${t.version} <> ${t.written_version}`),
    index('calendar_writes_connection_idx').on(t.connection_id),
  ],
);

/** The one row of the website's words (the shared WebsiteContent, as JSON); absent = the defaults. */
export const websiteSettings = pgTable(
  'website_settings',
  {
    id: integer('id').primaryKey().default(1),
    content: jsonb('content').notNull(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().default(crmNow),
  },
  (t) => [check('website_settings_one_row', sql`${t.id} = 1`)],
);

/** The one row of booking settings (the shared BookingSettings, as JSON); absent = the defaults. */
export const bookingSettings = pgTable(
  'booking_settings',
  {
    id: integer('id').primaryKey().default(1),
    settings: jsonb('settings').notNull(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().default(crmNow),
  },
  (t) => [check('booking_settings_one_row', sql`${t.id} = 1`)],
);

/**
 * What the public open times were computed from, as a number that only grows: triggers
 * (migration 0019) add one to a row here in every transaction that changes a scheduled
 * appointment's time, length or status, or the booking settings. A process that cached open
 * times reads the sum (one tiny query) to know whether another process changed anything
 * since. Several rows, one per backend (pg_backend_pid() % 16), so concurrent bookings do not
 * queue on one row.
 */
export const availabilityVersions = pgTable(
  'availability_versions',
  {
    shard: integer('shard').primaryKey(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('availability_versions_shard_check', sql`${t.shard} between 0 and 15`)],
);

/**
 * A visitor's private booking link: made with the lead (the public form's answer holds the
 * token, only its SHA-256 is kept), good for booking for 24 hours and then for the booked
 * call until it starts.
 */
export const bookingTokens = pgTable(
  'booking_tokens',
  {
    token_hash: text('token_hash').primaryKey(),
    lead_id: uuid('lead_id')
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    appointment_id: uuid('appointment_id').references(() => appointments.id, { onDelete: 'set null' }),
    // The repeat form (an inquiry on a known person's lead) that made this link; null for the
    // form that made the lead. The link shows only what its own form sent.
    inquiry_id: uuid('inquiry_id').references(() => leadEvents.id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('booking_tokens_lead_id_idx').on(t.lead_id),
    index('booking_tokens_expires_at_idx').on(t.expires_at),
    index('booking_tokens_inquiry_id_idx').on(t.inquiry_id),
  ],
);

/**
 * A website booking waiting for the visitor to confirm it from an email (docs/security.md,
 * "Calendar exhaustion"): made while website bookings ran above BOOKING_HOLD_ABOVE_PER_HOUR or
 * the owners require confirmation. It does not take the time (it is not an appointment, and
 * the time stays open to others); confirming books it like any booking, the no-overlap
 * constraint deciding between two holds of one time. One per booking link (a new one replaces
 * it); only the SHA-256 of the emailed confirmation code is kept.
 */
export const bookingHolds = pgTable(
  'booking_holds',
  {
    token_hash: text('token_hash')
      .primaryKey()
      .references(() => bookingTokens.token_hash, { onDelete: 'cascade' }),
    confirm_hash: text('confirm_hash').notNull(),
    // The time asked for: wall-clock in the business time zone, as appointments are.
    date: date('date', { mode: 'string' }).notNull(),
    time: time('time').notNull(),
    type: text('type').notNull(),
    // The network (IPv4 /24, IPv6 /64) the request came from, for staff looking into a spike.
    client_network: text('client_network'),
    // The visitor's IANA time zone, passed on to the appointment a confirmation makes.
    visitor_time_zone: text('visitor_time_zone'),
    // The person the visitor chose to meet (when visitors may choose); null: any available.
    host_id: uuid('host_id').references(() => users.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    // Set when confirmed, with the appointment it became (a second click answers the same).
    confirmed_at: timestamp('confirmed_at', { withTimezone: true }),
    appointment_id: uuid('appointment_id').references(() => appointments.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('booking_holds_confirm_hash_key').on(t.confirm_hash),
    index('booking_holds_expires_at_idx').on(t.expires_at),
    check('booking_holds_type_check', sql`${t.type} in ('Call', 'Zoom', 'On-site')`),
  ],
);

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    message: text('message').notNull(),
    read: boolean('read').notNull().default(false),
    // The lead it is about, so clicking it opens the lead; erasing the lead deletes it.
    lead_id: uuid('lead_id').references(() => leads.id, { onDelete: 'set null' }),
    created_at: createdAt(),
  },
  (t) => [
    check('notifications_type_check', sql`${t.type} in ('lead', 'appointment', 'booking', 'follow_up', 'calendar', 'reply', 'webhook')`),
    index('notifications_lead_id_idx').on(t.lead_id),
    index('notifications_user_created_idx').on(t.user_id, t.created_at.desc()),
  ],
);

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    session_id: text('session_id').notNull(),
    page_path: text('page_path').notNull(),
    event_type: text('event_type').notNull(),
    time_spent: integer('time_spent'),
    user_agent: text('user_agent'),
    referrer: text('referrer'),
    // From the landing URL, on the session's first pageview.
    utm_source: text('utm_source'),
    utm_medium: text('utm_medium'),
    utm_campaign: text('utm_campaign'),
    // Derived at ingestion: the referring site ('Direct' without one; our own pages are not
    // a source) and the kind of device from the user agent.
    referrer_host: text('referrer_host'),
    device: text('device'),
    created_at: createdAt(),
  },
  (t) => [
    check('analytics_events_type_check', sql`${t.event_type} in ('pageview', 'heartbeat', 'time_spent', 'form_view', 'form_start')`),
    check('analytics_events_time_spent_check', sql`${t.time_spent} is null or ${t.time_spent} >= 0`),
    index('analytics_events_created_at_idx').on(t.created_at),
  ],
);

/** Fixed-window counters (public lead form, sign-in) shared by every app process. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    window_start: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
    // When the window ends: keys have windows of different lengths, and the clean-up job
    // deletes each row as soon as its own window is over.
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.window_start] }), index('rate_limits_expires_at_idx').on(t.expires_at)],
);

/**
 * Where each admin signed in successfully lately: an attempt from one of these IPs is the
 * owner's, so it is not slowed when strangers fail against the account (docs/security.md,
 * "Sign-in limits").
 */
export const signInIps = pgTable(
  'sign_in_ips',
  {
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    last_success_at: timestamp('last_success_at', { withTimezone: true }).notNull().default(crmNow),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.ip] }), index('sign_in_ips_last_success_at_idx').on(t.last_success_at)],
);

/** One private calendar feed per admin: only a hash of its URL's token is kept; revocable. */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    user_id: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_hash_key').on(t.token_hash)],
);

/**
 * Hourly rollups of analytics_events, written in the same transaction as the events they
 * count (see insertAnalyticsEvents), so they are always exact. Hours are UTC-aligned.
 */
export const analyticsHourly = pgTable(
  'analytics_hourly',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    page_path: text('page_path').notNull(),
    views: integer('views').notNull().default(0),
    time_spent: bigint('time_spent', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hour, t.page_path] })],
);

/**
 * Each session's latest active hour. A period always ends now, so a session was active in
 * it exactly when its latest hour falls inside it: unique visitors is one indexed count.
 */
export const analyticsSessions = pgTable(
  'analytics_sessions',
  {
    session_id: text('session_id').primaryKey(),
    last_hour: timestamp('last_hour', { withTimezone: true }).notNull(),
    // First touch, for lead attribution: kept from the session's first recorded page view.
    source: text('source'),
    utm_source: text('utm_source'),
    utm_medium: text('utm_medium'),
    utm_campaign: text('utm_campaign'),
    landing_page: text('landing_page'),
    page_views: integer('page_views').notNull().default(0),
    // The hour of the first recorded page view: the session counts as a visitor of that hour
    // (analytics_hourly_visits). Null until a page view is recorded.
    first_hour: timestamp('first_hour', { withTimezone: true }),
    // How many times the lead form scrolled into view and was started (first field focused).
    form_views: integer('form_views').notNull().default(0),
    form_starts: integer('form_starts').notNull().default(0),
  },
  (t) => [
    index('analytics_sessions_last_hour_idx').on(t.last_hour),
    // The sessions that started, or saw, the lead form: the Analytics funnel checks the visitors
    // who sent the form against these (db/queries/analytics-report-queries.ts, sendersFormSteps). Small,
    // and touched only when a session's form counts change.
    index('analytics_sessions_form_started_idx').on(t.session_id).where(sql`${t.form_starts} > 0`),
    index('analytics_sessions_form_seen_idx').on(t.session_id).where(sql`${t.form_starts} > 0 or ${t.form_views} > 0`),
  ],
);

/**
 * Visitors by the hour of their first page view and their first touch (referring site, UTM,
 * landing page; '' for none), with how many of them saw and started the lead form (one who
 * started it saw it, so saw_form >= started_form): the funnel and the sources table. Written
 * in the same statement as the events, so it is exact.
 */
export const analyticsHourlyVisits = pgTable(
  'analytics_hourly_visits',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    source: text('source').notNull(),
    utm_source: text('utm_source').notNull(),
    utm_medium: text('utm_medium').notNull(),
    utm_campaign: text('utm_campaign').notNull(),
    landing_page: text('landing_page').notNull(),
    visitors: integer('visitors').notNull().default(0),
    saw_form: integer('saw_form').notNull().default(0),
    started_form: integer('started_form').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hour, t.source, t.utm_source, t.utm_medium, t.utm_campaign, t.landing_page] })],
);

/** Page views per UTC hour by referring site and by device kind (same transaction as the events). */
export const analyticsHourlySources = pgTable(
  'analytics_hourly_sources',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    kind: text('kind').notNull(),
    value: text('value').notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.hour, t.kind, t.value] }),
    check('analytics_hourly_sources_kind_check', sql`${t.kind} in ('referrer', 'device')`),
  ],
);

/**
 * The outbox: every email the product sends, written in the same transaction as the change
 * that causes it, then sent by a worker in each app process (src/server/mail/outbox.ts).
 * `data` is a snapshot of what the message says, so it can be sent after the lead or the
 * appointment changed or went away. docs/decisions/007-email-outbox.md.
 */
export const emails = pgTable(
  'emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // The Message-ID header, fixed when queued: a resend after a crash is recognisably the same message.
    message_id: text('message_id').notNull(),
    kind: text('kind').notNull(),
    to_address: text('to_address').notNull(),
    to_name: text('to_name'),
    data: jsonb('data').notNull(),
    // A message a job may try to queue more than once (an appointment's reminder) is queued once.
    dedupe_key: text('dedupe_key'),
    // The lead it is to or about: deleting a lead deletes what was written to or about them.
    lead_id: uuid('lead_id').references(() => leads.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().default(crmNow),
    // Retried with backoff until then, then marked failed; a manual retry gives it another day.
    retry_until: timestamp('retry_until', { withTimezone: true }).notNull().default(sql`crm_now() + interval '24 hours'`),
    // A worker that claimed the message holds it until then; past it, another may take it (the first died).
    locked_until: timestamp('locked_until', { withTimezone: true }),
    last_error: text('last_error'),
    // Mail a website visitor caused (their form, booking or booking change): the address's budget
    // per 24 hours it was queued under (PUBLIC_MAIL_PER_ADDRESS_PER_DAY, 0 = none). Null: staff or
    // the firm caused it. Trigger emails_visitor_mail (migration 0019) spends the budget or records
    // the message not sent, and drops the display name the visitor typed.
    visitor_budget: integer('visitor_budget'),
    // Who wrote it, for a message a person wrote to a lead from the lead's page (null: the
    // product wrote it, or the account was removed since).
    sent_by: uuid('sent_by').references(() => users.id, { onDelete: 'set null' }),
    // The conversation it belongs to, as the lead's timeline groups it: the id of the thread's
    // first message (null: it starts its own, its id). A message answering one of the lead's
    // takes that one's thread. No foreign key: the first message may be deleted, the thread stays.
    thread_id: uuid('thread_id'),
    created_at: createdAt(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    check('emails_status_check', sql`${t.status} in ('queued', 'sent', 'failed', 'not_sent')`),
    check(
      'emails_kind_check',
      sql`${t.kind} in ('new-lead', 'lead-acknowledgement', 'appointment', 'appointment-reminder', 'test', 'invite', 'password-changed', 'password-reset', 'weekly-report', 'booking-confirmation', 'lead-message', 'lead-reply', 'task-digest')`,
    ),
    uniqueIndex('emails_dedupe_key_key').on(t.dedupe_key).where(sql`${t.dedupe_key} is not null`),
    index('emails_due_idx').on(t.next_attempt_at).where(sql`${t.status} = 'queued'`),
    index('emails_created_at_idx').on(t.created_at.desc()),
    index('emails_lead_id_idx').on(t.lead_id),
    index('emails_sent_by_idx').on(t.sent_by).where(sql`${t.sent_by} is not null`),
    // A reply names the message it answers (In-Reply-To, References): found by its Message-ID.
    index('emails_message_id_idx').on(t.message_id),
    index('emails_thread_idx').on(t.thread_id).where(sql`${t.thread_id} is not null`),
  ],
);

/**
 * How far the reply reader got in the reply mailbox (IMAP_URL), and which process reads it now:
 * one process at a time holds the lease (`locked_until`); UIDs up to `last_uid` of `uidvalidity`
 * are stored. A process that dies leaves the lease to run out; the next reader goes on from
 * `last_uid`, and the unique UID of inbound_emails keeps a message it stored already from
 * being stored twice.
 */
export const mailReaders = pgTable('mail_readers', {
  // user@host:port/folder: a new IMAP_URL starts its own count.
  mailbox: text('mailbox').primaryKey(),
  uidvalidity: bigint('uidvalidity', { mode: 'number' }),
  last_uid: bigint('last_uid', { mode: 'number' }).notNull().default(0),
  locked_until: timestamp('locked_until', { withTimezone: true }),
  locked_by: text('locked_by'),
  // The last look's outcome, for Settings → Email: null when it went well.
  last_error: text('last_error'),
  checked_at: timestamp('checked_at', { withTimezone: true }),
});

/**
 * Mail read from the reply mailbox: a lead's reply (lead_id set, matched by the message it
 * answers, the lead's reply token, or their address), or mail for the Inbox (lead_id null).
 * Stored as text only (HTML turned into text), never run or shown as HTML.
 */
export const inboundEmails = pgTable(
  'inbound_emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    mailbox: text('mailbox').notNull(),
    uidvalidity: bigint('uidvalidity', { mode: 'number' }).notNull(),
    uid: bigint('uid', { mode: 'number' }).notNull(),
    message_id: text('message_id'),
    in_reply_to: text('in_reply_to'),
    from_address: text('from_address').notNull(),
    from_name: text('from_name').notNull().default(''),
    to_addresses: text('to_addresses').notNull().default(''),
    cc_addresses: text('cc_addresses').notNull().default(''),
    subject: text('subject').notNull().default(''),
    // The Date header (null when missing or unreadable), and when we read it.
    sent_at: timestamp('sent_at', { withTimezone: true }),
    received_at: timestamp('received_at', { withTimezone: true }).notNull().default(crmNow),
    body: text('body').notNull().default(''),
    lead_id: uuid('lead_id').references(() => leads.id, { onDelete: 'cascade' }),
    // How it joined the lead: 'thread' (answers a message we sent), 'token' (the lead's reply
    // address), 'sender' (their address), 'staff' (attached from the Inbox).
    matched_by: text('matched_by'),
    // True when the lead sent it and that is shown (sent to their own reply address, or the firm's
    // mail host saw DMARC, or SPF and DKIM, pass for the domain); false shows "Sender not verified"
    // (conversations/match-reply.ts decides).
    sender_verified: boolean('sender_verified').notNull().default(true),
    // Sent by another address than the lead's (into the lead's thread, or to their reply
    // address): shown "From someone else: <address>", never verified.
    from_someone_else: boolean('from_someone_else').notNull().default(false),
    // The message of ours it answers, when it names one.
    answers_email_id: uuid('answers_email_id').references(() => emails.id, { onDelete: 'set null' }),
    // The conversation it belongs to (as emails.thread_id): the thread of the message it answers,
    // ours or theirs; null when it answers none we know (it starts its own).
    thread_id: uuid('thread_id'),
    // From a person whose data was erased (their address's keyed hash is in erased_senders): never
    // matched to a lead by its sender, and the Inbox says so.
    erased_sender: boolean('erased_sender').notNull().default(false),
    // Its words ask us to stop writing (conversations/stop-request.ts, asksToStop): the lead's
    // page offers to mark them Do not email, which staff confirm; false again once staff say it
    // is not such a request.
    asks_to_stop: boolean('asks_to_stop').notNull().default(false),
    read_at: timestamp('read_at', { withTimezone: true }),
    dismissed_at: timestamp('dismissed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('inbound_emails_uid_key').on(t.mailbox, t.uidvalidity, t.uid),
    // The same message read again (the mailbox was rebuilt, a new UIDVALIDITY) is not stored twice.
    uniqueIndex('inbound_emails_message_id_key').on(t.mailbox, t.message_id).where(sql`${t.message_id} is not null`),
    index('inbound_emails_lead_idx').on(t.lead_id, t.received_at.desc()),
    index('inbound_emails_unread_idx').on(t.lead_id).where(sql`${t.read_at} is null and ${t.lead_id} is not null`),
    index('inbound_emails_inbox_idx').on(t.received_at.desc()).where(sql`${t.lead_id} is null`),
    index('inbound_emails_thread_idx').on(t.thread_id).where(sql`${t.thread_id} is not null`),
    check('inbound_emails_matched_by_check', sql`${t.matched_by} in ('thread', 'token', 'sender', 'staff')`),
  ],
);

/**
 * The addresses of people whose data was erased, as HMAC-SHA256 under the app secret
 * 'erased_senders' (never the address itself): their later mail is not matched back to anyone
 * by its sender, and waits in the Inbox marked as theirs.
 */
export const erasedSenders = pgTable('erased_senders', {
  address_hash: text('address_hash').primaryKey(),
  erased_at: timestamp('erased_at', { withTimezone: true }).notNull().default(crmNow),
});

/**
 * The Message-IDs of mail erased with a person's data, as HMAC-SHA256 under the same secret: a
 * mailbox read again from its start (rebuilt, a new UIDVALIDITY) still holds that mail, and the
 * reader must not store it a second time.
 */
export const erasedMessages = pgTable('erased_messages', {
  message_hash: text('message_hash').primaryKey(),
  erased_at: timestamp('erased_at', { withTimezone: true }).notNull().default(crmNow),
});

/** A file that came with inbound mail (at most 10 MB each): downloaded by staff, never shown inline. */
export const inboundAttachments = pgTable(
  'inbound_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email_id: uuid('email_id')
      .notNull()
      .references(() => inboundEmails.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    content_type: text('content_type').notNull(),
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
  },
  (t) => [
    index('inbound_attachments_email_idx').on(t.email_id),
    check('inbound_attachments_size_check', sql`${t.size} between 0 and 10485760`),
  ],
);

/**
 * Mail visitors caused, per recipient, for the budget of PUBLIC_MAIL_PER_ADDRESS_PER_DAY and the
 * one acknowledgement per 30 days (docs/security.md, "Mail that visitors cause"). Written only by
 * the trigger on emails; the address is kept as the SHA-256 of its normalised form, and rows go
 * after 30 days.
 */
export const publicMailSpends = pgTable(
  'public_mail_spends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    address_key: text('address_key').notNull(),
    kind: text('kind').notNull(),
    spent_at: timestamp('spent_at', { withTimezone: true }).notNull().default(crmNow),
  },
  (t) => [index('public_mail_spends_address_idx').on(t.address_key, t.spent_at), index('public_mail_spends_spent_at_idx').on(t.spent_at)],
);

/**
 * The database functions and triggers of src/server/db/functions/, one row per file: the SHA-256
 * of the text last applied (db/definitions.ts). A file whose text changed is applied again at the
 * next start; the tables' triggers and what they set off are listed in docs/architecture.md.
 */
export const databaseDefinitions = pgTable('database_definitions', {
  name: text('name').primaryKey(),
  sha256: text('sha256').notNull(),
  // The real time of a change to the schema, as drizzle's own journal keeps it: never a test's clock.
  applied_at: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Secrets the server makes for itself on first use (e.g. the key that signs the lead form's
 * tokens): one row per name, the same in every process and across restarts.
 */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  // base64url of random bytes.
  value: text('value').notNull(),
  created_at: createdAt(),
});

/**
 * Lead form tokens already sent with a submission: a token serves one submission (its retries
 * included), in every process. Only the token's SHA-256 is kept, until the token would have
 * expired anyway; the maintenance job deletes it then.
 */
export const formTokenUses = pgTable(
  'form_token_uses',
  {
    token_hash: text('token_hash').primaryKey(),
    submission_id: uuid('submission_id').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('form_token_uses_expires_at_idx').on(t.expires_at)],
);

/**
 * Webhooks out (docs/webhooks.md). An endpoint's secret (`whsec_…`) is sealed with the
 * credentials key (lib/credentials.ts, context `webhook_endpoints:<id>`); after a rotation the
 * previous one keeps signing beside it until `previous_secret_until` (24 hours).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    previous_secret: text('previous_secret'),
    previous_secret_until: timestamp('previous_secret_until', { withTimezone: true }),
    // Paused by an owner, or by the worker after 3 days of failures (or a 410 Gone): no new
    // deliveries are queued and none is sent until it is resumed.
    paused_at: timestamp('paused_at', { withTimezone: true }),
    paused_reason: text('paused_reason'),
    // The first failure since the last success: 3 days of it pause the endpoint.
    failing_since: timestamp('failing_since', { withTimezone: true }),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().default(crmNow),
  },
  (t) => [
    check('webhook_endpoints_url_check', sql`length(${t.url}) between 8 and 2000`),
    check('webhook_endpoints_paused_reason_check', sql`${t.paused_reason} is null or ${t.paused_at} is not null`),
    // The triggers' one indexed check: is any endpoint listening at all?
    index('webhook_endpoints_active_idx').using('gin', t.events).where(sql`${t.paused_at} is null`),
  ],
);

/**
 * What happened, recorded by triggers in the transaction of the change (hand-written SQL at the
 * end of migration 0054; since 0058 they record the event alone, and the worker routes it to
 * the endpoints listening: `routed`). `payload` (the JSON body sent, as text so its bytes never change) is
 * frozen at the event's first delivery attempt and reused by every retry and replay; `lead_id`
 * names the person it is about, so an erasure finds and clears it. `tx` folds several changes
 * of one object in one transaction into one event.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    object_id: uuid('object_id'),
    lead_id: uuid('lead_id'),
    data: jsonb('data'),
    payload: text('payload'),
    erased: boolean('erased').notNull().default(false),
    tx: bigint('tx', { mode: 'number' }).notNull().default(sql`txid_current()`),
    /** Given its deliveries (one per endpoint listening) by the worker, after the change committed. */
    routed: boolean('routed').notNull().default(false),
    created_at: createdAt(),
  },
  // Every index here is written in the transaction of the change a webhook reports (a lead
  // submission's included), so there are few: `seq` is unique by its sequence alone, and the
  // 30-day retention reads `created_at` (in insertion order) through a BRIN index, whose upkeep
  // is next to nothing. The recording functions ask whether this transaction already recorded an
  // event of an object: `tx` first, so that costs a probe of this transaction's few entries (by
  // object first, a cached plan came to scan the whole index at every lead submission).
  (t) => [
    index('webhook_events_tx_idx')
      .on(t.tx, t.object_id)
      .where(sql`${t.type} not in ('lead.created', 'appointment.booked', 'email.replied')`),
    index('webhook_events_lead_idx').on(t.lead_id).where(sql`${t.lead_id} is not null`),
    index('webhook_events_created_idx').using('brin', t.created_at),
    index('webhook_events_unrouted_idx').on(t.seq).where(sql`not ${t.routed}`),
  ],
);

/**
 * One event to one endpoint (a replay is another row, `replay_of`). Claimed with a lease
 * (`locked_until`, `for update skip locked`); a later event of the same object waits for every
 * earlier one to that endpoint (`object_id`, `event_seq` copied from the event for that check).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpoint_id: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event_id: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    object_id: uuid('object_id'),
    event_seq: bigint('event_seq', { mode: 'number' }).notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().default(crmNow),
    locked_until: timestamp('locked_until', { withTimezone: true }),
    last_status: integer('last_status'),
    last_error: text('last_error'),
    replay_of: uuid('replay_of'),
    created_at: createdAt(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('webhook_deliveries_status_check', sql`${t.status} in ('pending', 'delivered', 'failed', 'cancelled')`),
    uniqueIndex('webhook_deliveries_once_key').on(t.endpoint_id, t.event_id).where(sql`${t.replay_of} is null`),
    index('webhook_deliveries_due_idx').on(t.next_attempt_at).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_order_idx').on(t.endpoint_id, t.object_id, t.event_seq).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_event_idx').on(t.event_id),
  ],
);

/** The delivery log: one row per attempt, kept 30 days; the API shows an endpoint's last 100. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    delivery_id: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpoint_id: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().default(crmNow),
    http_status: integer('http_status'),
    duration_ms: integer('duration_ms').notNull(),
    // The answer's first 1 KB (as text), or null.
    response_body: text('response_body'),
    error: text('error'),
  },
  (t) => [
    index('webhook_attempts_endpoint_idx').on(t.endpoint_id, t.at.desc(), t.id.desc()),
    index('webhook_attempts_delivery_idx').on(t.delivery_id),
    index('webhook_attempts_at_idx').on(t.at),
  ],
);
