import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { EXPORT_VISIT_EVENTS_LIMIT, leadExportSchema, type LeadExport } from '#shared/schemas/lead-privacy';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, pgArray, queryRows, transaction } from '../sql.ts';

/**
 * "Export everything": what we hold about the person behind one lead, read in one
 * repeatable-read transaction so the parts agree (docs/product-rules.md, "Personal data requests").
 */

const shape = leadExportSchema.shape;
const leadRow = z.object({ lead: shape.lead, owner_email: z.string().nullable() });
const sessionRow = z.object({ session_id: z.string() });

/**
 * The analytics sessions a lead's visits came in: the one its form sent, and those of its later
 * inquiries (a repeated form, a merged duplicate). Erasing deletes these sessions' raw events.
 */
export const leadSessionIds = async (db: Db, leadId: string): Promise<string[]> =>
  (
    await queryRows(
      db,
      sql`select distinct s as session_id from (
        select analytics_session_id as s from leads where id = ${leadId}
        union all select data->>'analytics_session_id' from lead_events where lead_id = ${leadId} and kind = 'inquiry'
      ) x where s is not null order by 1`,
      sessionRow,
    )
  ).map((r) => r.session_id);

export async function exportLead(db: Db, id: string): Promise<LeadExport | undefined> {
  return transaction(db, async (t) => {
    await execute(t, sql`set transaction isolation level repeatable read`);
    // Every column, whatever is added later; timestamps in UTC as the API writes them.
    const [row] = await queryRows(
      t,
      sql`select to_jsonb(l) || jsonb_build_object('created_at', ${isoTimestamp(sql`l.created_at`)}, 'updated_at', ${isoTimestamp(sql`l.updated_at`)},
        'visit_hour', ${isoTimestamp(sql`l.visit_hour`)}, 'suspected_abuse_at', ${isoTimestamp(sql`l.suspected_abuse_at`)},
        'stage_entered_at', ${isoTimestamp(sql`l.stage_entered_at`)}) as lead,
        (select u.email from users u where u.id = l.owner_id) as owner_email
      from leads l where l.id = ${id}`,
      leadRow,
    );
    if (!row) return undefined;
    const sessionIds = await leadSessionIds(t, id);
    const [statusHistory, events, notes, appointments, tasks, emails, replies, visitEvents] = [
      await queryRows(
        t,
        sql`
        select c.from_status, c.to_status, ${isoTimestamp(sql`c.changed_at`)} as changed_at, u.email as changed_by
        from lead_status_changes c left join users u on u.id = c.changed_by
        where c.lead_id = ${id} order by c.changed_at, c.id`,
        shape.status_history.element,
      ),
      await queryRows(
        t,
        sql`
        select e.id, e.kind, e.data, u.email as actor, ${isoTimestamp(sql`e.created_at`)} as created_at
        from lead_events e left join users u on u.id = e.actor_id
        where e.lead_id = ${id} order by e.created_at, e.id`,
        shape.events.element,
      ),
      await queryRows(
        t,
        sql`
        select n.id, n.body, u.email as author, ${isoTimestamp(sql`n.created_at`)} as created_at, ${isoTimestamp(sql`n.updated_at`)} as updated_at
        from lead_notes n left join users u on u.id = n.author_id
        where n.lead_id = ${id} order by n.created_at, n.id`,
        shape.notes.element,
      ),
      (
        await queryRows(
          t,
          sql`
          select to_jsonb(a) || jsonb_build_object('created_at', ${isoTimestamp(sql`a.created_at`)},
            'reminder_sent_at', ${isoTimestamp(sql`a.reminder_sent_at`)}, 'lead_reminder_sent_at', ${isoTimestamp(sql`a.lead_reminder_sent_at`)},
            'time', to_char(a.time, 'HH24:MI'), 'blocks', a.blocks::text) as appointment
          from appointments a where a.lead_id = ${id} order by a.date, a.time, a.id`,
          z.object({ appointment: shape.appointments.element }),
        )
      ).map((r) => r.appointment),
      await queryRows(
        t,
        sql`
        select k.id, k.type, k.title, ${isoTimestamp(sql`k.due_at`)} as due_at, u.email as assignee,
          ${isoTimestamp(sql`k.done_at`)} as done_at, ${isoTimestamp(sql`k.created_at`)} as created_at
        from lead_tasks k left join users u on u.id = k.assignee_id
        where k.lead_id = ${id} order by k.due_at, k.id`,
        shape.tasks.element,
      ),
      // Without the one-time links a message still waiting holds (its booking's private link):
      // the export is a copy that leaves the firm, and such a link moves or cancels the call.
      await queryRows(
        t,
        sql`
        select e.id, e.kind, e.to_address, e.to_name, e.status, e.attempts, e.last_error,
          ${isoTimestamp(sql`e.created_at`)} as created_at, ${isoTimestamp(sql`e.sent_at`)} as sent_at, e.data - 'link' - 'manage_path' as data
        from emails e where e.lead_id = ${id} order by e.created_at, e.id`,
        shape.emails.element,
      ),
      await queryRows(
        t,
        sql`
        select i.id, i.from_address, i.from_name, i.to_addresses, i.cc_addresses, i.subject, ${isoTimestamp(sql`i.sent_at`)} as sent_at,
          ${isoTimestamp(sql`i.received_at`)} as received_at, i.body,
          (select coalesce(json_agg(json_build_object('filename', a.filename, 'content_type', a.content_type, 'size', a.size,
             'content_base64', translate(encode(a.content, 'base64'), E'\n', '')) order by a.filename, a.id), '[]'::json)
           from inbound_attachments a where a.email_id = i.id) as attachments
        from inbound_emails i
        -- Their conversation, and mail from their address still waiting in the Inbox (erasing removes both).
        where i.lead_id = ${id} or (i.lead_id is null and i.from_address = (select email from leads where id = ${id}))
        order by i.received_at, i.id`,
        shape.replies.element,
      ),
      // No index leads here by session: a scan of the raw events, bounded by their retention.
      sessionIds.length === 0
        ? []
        : await queryRows(
            t,
            sql`
          select session_id, event_type, page_path, time_spent, referrer, referrer_host, utm_source, utm_medium, utm_campaign,
            device, user_agent, ${isoTimestamp(sql`created_at`)} as created_at
          from analytics_events where session_id = any(${pgArray(sessionIds)}::text[])
          order by created_at desc, id desc limit ${EXPORT_VISIT_EVENTS_LIMIT + 1}`,
            shape.visits.shape.events.element,
          ),
    ];
    return {
      exported_at: new Date().toISOString(),
      lead: row.lead,
      owner_email: row.owner_email,
      status_history: statusHistory,
      events,
      notes,
      appointments,
      tasks,
      emails,
      replies,
      visits: {
        session_ids: sessionIds,
        events: visitEvents.slice(0, EXPORT_VISIT_EVENTS_LIMIT).reverse(),
        truncated: visitEvents.length > EXPORT_VISIT_EVENTS_LIMIT,
      },
    };
  });
}
