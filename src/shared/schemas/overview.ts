import * as z from 'zod';
import { appointmentSchema } from './appointment.ts';
import { leadSchema } from './lead.ts';

/** Everything the Overview shows, computed by the server in SQL. */
export const overviewSchema = z.object({
  total_leads: z.number().int(),
  total_appointments: z.number().int(),
  new_leads: z.number().int(),
  upcoming_appointments: z.number().int(),
  recent_leads: z.array(leadSchema),
  upcoming: z.array(appointmentSchema),
  /** Median seconds from a lead's creation to Contacted, for leads of the last 30 days; null with none. */
  median_seconds_to_contacted: z.number().nullable(),
});
export type Overview = z.infer<typeof overviewSchema>;
