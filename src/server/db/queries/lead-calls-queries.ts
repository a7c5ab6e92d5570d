import { sql } from 'drizzle-orm';
import { loggedCallSchema, type LoggedCall, type LogCallRequest } from '#shared/schemas/lead-workspace';
import type { Db } from '../client.ts';
import { isoTimestamp, queryRows } from '../sql.ts';

/**
 * Logs a call with the lead by `adminId`: a timeline entry of kind `call` (how it went, its
 * minutes, its notes). Undefined for no such lead.
 */
export async function logCall(db: Db, leadId: string, adminId: string, call: LogCallRequest): Promise<LoggedCall | undefined> {
  const [row] = await queryRows(
    db,
    sql`insert into lead_events (lead_id, kind, actor_id, data)
        select l.id, 'call', ${adminId}::uuid, jsonb_build_object('outcome', ${call.outcome}::text,
          'duration_minutes', ${call.duration_minutes ?? null}::int, 'notes', ${call.notes ? call.notes : null}::text)
        from leads l where l.id = ${leadId}
        returning id, data->>'outcome' as outcome, (data->>'duration_minutes')::int as duration_minutes, data->>'notes' as notes,
          ${isoTimestamp(sql`created_at`)} as at`,
    loggedCallSchema,
  );
  return row;
}
