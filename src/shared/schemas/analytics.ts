import * as z from 'zod';
import { ANALYTICS_EVENT_TYPES } from '../constants.ts';
import { NUL_MESSAGE, noNul } from './lead.ts';

/** Longest time one heartbeat or time_spent event may report (the tracker sends every 30 s). */
export const MAX_EVENT_SECONDS = 3600;
export const ANALYTICS_SESSION_KEY = 'analytics_session_id';
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

const optionalText = (max: number) => z.string().max(max).refine(noNul, NUL_MESSAGE).optional();

/**
 * One event from the public pages' tracker. Heartbeat and time_spent carry the seconds since
 * that page's previous record, so summing them never counts a second twice.
 */
export const analyticsEventRequestSchema = z
  .object({
    session_id: z.string().regex(SESSION_ID_PATTERN, 'Invalid session id'),
    event_type: z.enum(ANALYTICS_EVENT_TYPES),
    page_path: z.string().min(1).max(512).startsWith('/', 'Invalid path').refine(noNul, NUL_MESSAGE),
    time_spent: z.number().int().min(0).max(MAX_EVENT_SECONDS).optional(),
    referrer: optionalText(1000),
    utm_source: optionalText(200),
    utm_medium: optionalText(200),
    utm_campaign: optionalText(200),
  })
  .refine((e) => e.event_type === 'pageview' || e.time_spent !== undefined, {
    message: 'time_spent is required for heartbeat and time_spent events',
    path: ['time_spent'],
  });
export type AnalyticsEventRequest = z.infer<typeof analyticsEventRequestSchema>;
