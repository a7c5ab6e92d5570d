import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { inboxMessageSchema } from '#shared/schemas/inbox';
import { taskSchema } from '#shared/schemas/lead-tasks';
import type { Db } from '../db/client.ts';
import { getAppointment } from '../db/queries/appointments-queries.ts';
import { inboxColumns } from '../db/queries/inbound-emails-queries.ts';
import { taskColumns } from '../db/queries/lead-tasks-queries.ts';
import { getLead, getLeads } from '../db/queries/leads-queries.ts';
import { queryRows } from '../db/sql.ts';

/**
 * A webhook's body: `{ type, timestamp, data }` (the Standard Webhooks payload structure), where
 * `data` is the object as the API answers it (GET /api/leads/{id}, an appointment, a reply as
 * the Inbox shows it, a task) and `timestamp` is when the change was made. A trigger
 * records the event in the change's transaction but cannot build the API's JSON, so the body is
 * built at the event's first delivery attempt and frozen (webhook_events.payload): every retry,
 * every other endpoint and every replay sends the same bytes. It shows the object as it was at
 * that first attempt (normally within a second of the change). An object gone by then (deleted)
 * is sent as `{ "id" }`. What the trigger knew of the change goes beside `data` (`previous` for
 * stage changes and reschedules, `merged_lead_ids` for merges).
 */
type PayloadEvent = { event_type: string; event_created_at: string; object_id: string | null; data: Record<string, unknown> | null };

export async function buildPayload(db: Db, event: PayloadEvent): Promise<string> {
  const data = event.object_id === null ? {} : ((await objectOf(db, event.event_type, event.object_id)) ?? { id: event.object_id });
  return payloadText(event, data);
}

/**
 * buildPayload for many events at once (a worker's batch), keyed by event id: the leads of every
 * lead event are read together (two statements for the batch); the rarer objects one by one.
 */
export async function buildPayloads(db: Db, events: readonly (PayloadEvent & { event_id: string })[]): Promise<Map<string, string>> {
  const leadEvents = events.filter((e) => e.event_type.startsWith('lead.') && e.object_id !== null);
  const leads = await getLeads(db, [...new Set(leadEvents.map((e) => e.object_id!))]);
  const built = new Map<string, string>();
  for (const event of events) {
    if (event.object_id !== null && event.event_type.startsWith('lead.')) {
      built.set(event.event_id, payloadText(event, leads.get(event.object_id) ?? { id: event.object_id }));
    } else {
      built.set(event.event_id, await buildPayload(db, event));
    }
  }
  return built;
}

const payloadText = (event: PayloadEvent, data: unknown) =>
  JSON.stringify({ type: event.event_type, timestamp: event.event_created_at, data, ...event.data });

async function objectOf(db: Db, type: string, id: string): Promise<unknown> {
  if (type.startsWith('lead.')) return getLead(db, id);
  if (type.startsWith('appointment.')) return getAppointment(db, id);
  if (type === 'email.replied') {
    const [row] = await queryRows(
      db,
      sql`select ${inboxColumns}, i.lead_id, i.sender_verified, i.from_someone_else from inbound_emails i where i.id = ${id}`,
      inboxMessageSchema.extend({ lead_id: z.uuid().nullable(), sender_verified: z.boolean(), from_someone_else: z.boolean() }),
    );
    return row;
  }
  if (type === 'task.due') {
    const [row] = await queryRows(db, sql`select ${taskColumns} from lead_tasks t where t.id = ${id}`, taskSchema);
    return row;
  }
  return undefined;
}
