/**
 * Every TanStack Query key of the admin app, in one place (docs/conventions.md, "Client
 * features"). A feature's `api/` hooks build their keys here, and a change in one feature
 * refreshes another's cache by name (`queryKeys.appointments.all`), never by an array typed
 * out again. A key's first part is its family: invalidating `x.all` refreshes every query of
 * that family (a lead's page, its timeline and every list are under `leads.all`).
 *
 * The lint rule "no typed-out query keys" (eslint.config.js) keeps array keys out of every
 * other admin file.
 */
export const queryKeys = {
  leads: {
    all: ['leads'],
    list: (view: object) => ['leads', 'list', view],
    detail: (id: string) => ['leads', 'detail', id],
    timeline: (id: string) => ['leads', 'timeline', id],
    // Under its lead's timeline: whatever refreshes the timeline refreshes an open conversation.
    thread: (id: string, threadId: string) => ['leads', 'timeline', id, 'thread', threadId],
    duplicates: (id: string) => ['leads', 'duplicates', id],
    appointmentCounts: (id: string) => ['leads', 'appointment-counts', id],
    // A task's change is the lead's (its next step), so tasks live under the leads family.
    tasks: (id: string) => ['leads', 'tasks', id],
    myTasks: (view: object) => ['leads', 'my-tasks', view],
    /** The pipeline board under its filters, and one column's further pages from the first page's end. */
    boardAll: ['leads', 'board'],
    board: (view: object) => ['leads', 'board', view],
    boardColumn: (view: object, stageId: string, cursor: string) => ['leads', 'board-column', view, stageId, cursor],
  },
  /** The lead picker of the appointment dialog: not under `leads`, so a lead change does not refetch an open search. */
  leadPicker: (search: string) => ['lead-picker', search],
  admins: ['admins'],
  // Under the leads family: a stage's name or lead count changes with the leads in it.
  pipeline: ['leads', 'pipeline'],
  appointments: {
    all: ['appointments'],
    list: (from: string, to: string, hostId = '') => ['appointments', 'list', from, to, hostId],
    // Under the appointments family: a booking or a change anywhere refreshes them, like the calendar.
    websiteNetworks: ['appointments', 'website-networks'],
    outsideBusy: (person: string, from: string, to: string) => ['appointments', 'outside-busy', person, from, to],
    bulkCancelPreview: (criteria: object | undefined) => ['appointments', 'bulk-cancel-preview', criteria],
  },
  calendarFeed: ['calendar-feed'],
  overview: ['overview'],
  notifications: ['notifications'],
  analytics: {
    now: ['analytics-now'],
    summary: { all: ['analytics-summary'], period: (period: string) => ['analytics-summary', period] },
    report: { all: ['analytics-report'], range: (range: object) => ['analytics-report', range] },
    sources: { all: ['analytics-sources'], range: (range: object, group: string) => ['analytics-sources', range, group] },
    pipeline: { all: ['analytics-pipeline'], range: (range: object) => ['analytics-pipeline', range] },
  },
  account: {
    sessions: ['account', 'sessions'],
    preferences: ['account', 'preferences'],
    twoFactor: ['account', 'two-factor'],
    availability: ['account', 'availability'],
    calendars: ['account', 'calendars'],
    signature: ['account', 'signature'],
  },
  team: ['team'],
  /** Settings → Email templates, and the Template picker of a lead's Send email dialog. */
  emailTemplates: ['email-templates'],
  /** The Inbox: mail that joined no lead (under `leads`: the live stream's lead changes refresh it). */
  inbox: (view: string) => ['leads', 'inbox', view],
  /** The newest leads, for previewing a template with real details. */
  previewLeads: ['preview-leads'],
  audit: (filters: string) => ['audit', filters],
  settings: {
    website: ['website'],
    email: ['email'],
    booking: ['booking-settings'],
    security: ['settings', 'security'],
    deployment: ['settings', 'deployment'],
    apiKeys: ['settings', 'api-keys'],
    /** Settings → Integrations → Webhooks; an endpoint's secret and delivery log under it. */
    webhooks: ['settings', 'webhooks'],
    webhookSecret: (id: string) => ['settings', 'webhooks', id, 'secret'],
    webhookLog: (id: string) => ['settings', 'webhooks', id, 'log'],
  },
  /** The one-time links of the sign-in pages: each token is checked once, never retried. */
  links: {
    setup: (token: string) => ['setup-link', token],
    invite: (token: string) => ['invite', token],
    passwordReset: (token: string) => ['password-reset', token],
  },
} as const;
