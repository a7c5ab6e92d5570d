import * as z from 'zod';
import { APPOINTMENT_TYPES } from '../constants.ts';

export const appointmentTypeSchema = z.enum(APPOINTMENT_TYPES);

/** An appointment as the API returns it; date and time are wall-clock in BUSINESS_TIME_ZONE. */
export const appointmentSchema = z.object({
  id: z.uuid(),
  lead_id: z.uuid().nullable(),
  date: z.string(), // yyyy-mm-dd
  time: z.string(), // HH:MM
  type: appointmentTypeSchema,
  notes: z.string().nullable(),
  lead: z.object({ full_name: z.string(), email: z.string(), phone: z.string() }).nullable(),
});
export type Appointment = z.infer<typeof appointmentSchema>;
