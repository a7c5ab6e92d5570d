import * as z from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../constants.ts';

/**
 * Webhooks out (Settings → Integrations → Webhooks, owners): endpoints, their secrets and the
 * delivery log. docs/webhooks.md describes the events, the payload and the signature.
 */
export const WEBHOOK_URL_MAX = 2000;

const webhookUrlSchema = z
  .string({ error: 'URL is required' })
  .trim()
  .min(1, { message: 'URL is required', abort: true })
  .max(WEBHOOK_URL_MAX, `URL must be at most ${WEBHOOK_URL_MAX} characters`)
  .refine((value) => URL.canParse(value), 'Enter a full URL, starting with https://');

const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'Unknown event' }), { error: 'Choose at least one event' })
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((events) => [...new Set(events)]);

export const webhookEndpointRequestSchema = z
  .object({ url: webhookUrlSchema, events: webhookEventsSchema })
  .meta({ id: 'WebhookEndpointRequest' });
export type WebhookEndpointRequest = z.input<typeof webhookEndpointRequestSchema>;

export const webhookEndpointUpdateSchema = z
  .object({
    url: webhookUrlSchema.optional(),
    events: webhookEventsSchema.optional(),
    /** true pauses (nothing is queued or sent), false resumes (what was queued is sent). */
    paused: z.boolean().optional(),
    /** A new secret; the old one keeps signing beside it for 24 hours. */
    rotate_secret: z.literal(true).optional(),
  })
  .meta({ id: 'WebhookEndpointUpdate' });
export type WebhookEndpointUpdate = z.input<typeof webhookEndpointUpdateSchema>;

export const webhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    paused: z.boolean(),
    paused_at: z.string().nullable(),
    /** Why it is paused: by an owner, or after 3 days of failures (or a 410 Gone answer). */
    paused_reason: z.string().nullable(),
    /** Its first failure since it last succeeded. */
    failing_since: z.string().nullable(),
    /** Until when the secret before the last rotation still signs too. */
    previous_secret_until: z.string().nullable(),
    created_at: z.string(),
    created_by_name: z.string().nullable(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) }).meta({ id: 'WebhookEndpointList' });
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

export const webhookSecretSchema = z
  .object({
    /** `whsec_` and the key in base64, as the Standard Webhooks libraries take it. */
    secret: z.string(),
    previous_secret: z.string().nullable(),
    previous_secret_until: z.string().nullable(),
  })
  .meta({ id: 'WebhookSecret' });
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const webhookEndpointCreatedSchema = webhookEndpointSchema.extend({ secret: z.string() }).meta({ id: 'WebhookEndpointCreated' });
export type WebhookEndpointCreated = z.infer<typeof webhookEndpointCreatedSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;

/** One attempt of the delivery log. */
export const webhookAttemptSchema = z
  .object({
    id: z.number(),
    delivery_id: z.uuid(),
    event_id: z.uuid(),
    event_type: z.string(),
    /** The delivery's state now (the attempt may be one of several). */
    delivery_status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    at: z.string(),
    /** null: no answer (refused, timed out, blocked address, TLS error). */
    http_status: z.number().nullable(),
    duration_ms: z.number(),
    /** The answer's first 1 KB. */
    response_body: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookAttemptListSchema = z.object({ attempts: z.array(webhookAttemptSchema) }).meta({ id: 'WebhookAttemptList' });
export type WebhookAttemptList = z.infer<typeof webhookAttemptListSchema>;

export const webhookTestResultSchema = z
  .object({
    delivered: z.boolean(),
    http_status: z.number().nullable(),
    duration_ms: z.number(),
    response_body: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookTestResult' });
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;

export const webhookReplaySchema = z.object({ delivery_id: z.uuid() }).meta({ id: 'WebhookReplay' });
export type WebhookReplay = z.infer<typeof webhookReplaySchema>;

export const webhookIdParamSchema = z.object({ id: z.uuid('Invalid webhook id') });
export const webhookDeliveryParamSchema = z.object({ id: z.uuid('Invalid webhook id'), delivery_id: z.uuid('Invalid delivery id') });
