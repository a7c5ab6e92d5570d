import * as z from 'zod';
import { NOTIFICATION_TYPES } from '../constants.ts';

export const notificationSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(NOTIFICATION_TYPES),
    message: z.string(),
    read: z.boolean(),
    /** The lead it is about (a click opens it), if any. */
    lead_id: z.uuid().nullable().optional(),
    created_at: z.string(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z
  .object({
    notifications: z.array(notificationSchema),
    /** The business time zone (BUSINESS_TIME_ZONE): the bell shows each time in it, as the appointments it names. */
    time_zone: z.string(),
  })
  .meta({ id: 'NotificationList' });
export type NotificationList = z.infer<typeof notificationListSchema>;
export const notificationIdParamSchema = z.object({ id: z.uuid('Invalid notification id') });
export const countResponseSchema = z.object({ count: z.number().int() }).meta({ id: 'CountResponse' });
