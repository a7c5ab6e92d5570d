import { redactLeadsInAudit } from './audit-log-queries.ts';
import { sql } from 'drizzle-orm';
import { appSecret } from './app-secrets-queries.ts';
import { messageHash, senderHash } from './inbound-emails-queries.ts';
import * as z from 'zod';
import { APPOINTMENT_TYPES } from '#shared/constants';
import type { AppointmentCounts, AppointmentsOnDelete, EraseResponse } from '#shared/schemas/lead-privacy';
import type { Db } from '../client.ts';
import { execute, pgArray, queryRows, transaction } from '../sql.ts';
import { deleteAppointment, startsAt, updateAppointment, type AppointmentMail } from './appointments-queries.ts';
import { removeCopiesOf } from './calendar-writes-queries.ts';
import { leadSessionIds } from './lead-export-queries.ts';

/**
 * Deleting a lead (with a choice for its appointments) and erasing a person
 * (docs/product-rules.md, "Personal data requests").
 */

const idRow = z.object({ id: z.uuid() });
const personRow = z.object({ id: z.uuid(), full_name: z.string(), email: z.string() });

const lockLead = (db: Db, id: string) =>
  queryRows(db, sql`select id, full_name, email from leads where id = ${id} for update`, personRow).then((rows) => rows[0]);

/** All of a lead's appointments, and those scheduled and still to come (what the delete dialog asks about). */
export async function countLeadAppointments(db: Db, id: string, timeZone: string): Promise<AppointmentCounts | undefined> {
  const [row] = await queryRows(
    db,
    sql`select (select count(*)::int from appointments a where a.lead_id = l.id) as total,
      (select count(*)::int from appointments a where a.lead_id = l.id and a.status = 'scheduled' and ${startsAt(sql.raw('a'), timeZone)} > crm_now()) as upcoming
    from leads l where l.id = ${id}`,
    z.object({ total: z.number().int(), upcoming: z.number().int() }),
  );
  return row;
}

/** `mail`: how the lead is told of cancelled or deleted appointments; undefined tells nobody (an API key without email:send). */
export type DeleteLeadOptions = {
  appointments: AppointmentsOnDelete;
  adminId: string;
  timeZone: string;
  mail: AppointmentMail | undefined;
};

/**
 * Deletes a lead in one transaction. Its appointments are kept (they show "Unknown Lead"),
 * cancelled (those still to come; then kept) or deleted, as asked. Cancelling or deleting goes
 * through the appointment's own path, so the person is emailed that the call is off, as
 * when staff cancel it; those messages are let go of the lead so they outlive it (the lead's
 * other emails go with it). Its name (for the audit log) and what happened to its appointments;
 * undefined when there is no such lead.
 */
export async function deleteLeadWithAppointments(
  db: Db,
  id: string,
  { appointments, adminId, timeZone, mail }: DeleteLeadOptions,
): Promise<{ full_name: string; appointments_cancelled: number; appointments_deleted: number } | undefined> {
  return transaction(db, async (t) => {
    const lead = await lockLead(t, id);
    if (!lead) return undefined;
    let cancelled = 0;
    let deleted = 0;
    if (appointments === 'cancel') {
      const upcoming = await queryRows(
        t,
        sql`update appointments a set changed_by = ${adminId}
          where a.lead_id = ${id} and a.status = 'scheduled' and ${startsAt(sql.raw('a'), timeZone)} > crm_now() returning a.id`,
        idRow,
      );
      for (const { id: appointmentId } of upcoming) {
        if (
          await updateAppointment(
            t,
            appointmentId,
            { status: 'cancelled' },
            { ...(mail && { mail }), cancelledBy: 'staff', changedBy: adminId },
          )
        )
          cancelled += 1;
      }
    } else if (appointments === 'delete') {
      const all = await queryRows(t, sql`select id from appointments where lead_id = ${id} order by date, time, id`, idRow);
      for (const { id: appointmentId } of all) if (await deleteAppointment(t, appointmentId, mail)) deleted += 1;
    }
    // The cancellations just queued (in this transaction, so at crm_now()) must not go with the lead.
    await execute(t, sql`update emails set lead_id = null where lead_id = ${id} and kind = 'appointment' and created_at = crm_now()`);
    await forgetInWeeklyReports(t, [id]);
    await execute(t, sql`delete from leads where id = ${id}`);
    return { full_name: lead.full_name, appointments_cancelled: cancelled, appointments_deleted: deleted };
  });
}

/**
 * A weekly report names the leads whose follow-up was due (a morning task list, the leads of its
 * tasks); it is about several leads, so it
 * is not deleted with one of them: those leads' entries are taken out of it instead (the
 * count of follow-ups due stays as it was).
 */
async function forgetInWeeklyReports(t: Db, ids: string[]): Promise<void> {
  await execute(
    t,
    sql`
    update emails set data = jsonb_set(data, '{follow_ups,leads}', coalesce(
      (select jsonb_agg(x) from jsonb_array_elements(data->'follow_ups'->'leads') x where x->>'lead_id' <> all(${pgArray(ids)}::text[])), '[]'::jsonb))
    where kind = 'weekly-report' and jsonb_typeof(data->'follow_ups'->'leads') = 'array'
      and exists (select 1 from jsonb_array_elements(data->'follow_ups'->'leads') x where x->>'lead_id' = any(${pgArray(ids)}::text[]))`,
  );
  // The morning task list likewise: its tasks of those leads go, its counts stay.
  await execute(
    t,
    sql`
    update emails set data = jsonb_set(data, '{tasks}', coalesce(
      (select jsonb_agg(x) from jsonb_array_elements(data->'tasks') x where x->>'lead_id' <> all(${pgArray(ids)}::text[])), '[]'::jsonb))
    where kind = 'task-digest' and jsonb_typeof(data->'tasks') = 'array'
      and exists (select 1 from jsonb_array_elements(data->'tasks') x where x->>'lead_id' = any(${pgArray(ids)}::text[]))`,
  );
}

/**
 * The texts of older notifications that name the person without pointing at the lead: the
 * new-lead notice carries the email; bookings and reminders only the name.
 */
function namingPrefixes(fullName: string): string[] {
  return [
    `New booking: ${fullName}, `,
    `Booking moved: ${fullName}, `,
    `Booking cancelled: ${fullName}, `,
    ...APPOINTMENT_TYPES.map((type) => `Upcoming ${type} with ${fullName} at `),
  ];
}

/** An erasure's answer, with the appointments kept (whose copies in outside calendars are to go). */
export type Erased = Omit<EraseResponse, 'calendars_unreachable'> & { appointment_ids: string[] };

/**
 * Erases the person behind a lead, in one transaction: the lead and any legacy duplicate (a
 * lead of the same email: the same person), with what they own by cascade (notes, timeline,
 * status history, emails, booking links); the notifications that name them; the raw analytics
 * events of their sessions. Their appointments are kept, so the calendar and the counts stay
 * true, but without the lead, notes, place or the network a website booking came from. The analytics rollups keep counting the visits:
 * they hold no one's identity. Undefined when there is no such lead.
 */
export async function eraseLead(db: Db, id: string): Promise<Erased | undefined> {
  // Read before the transaction: made on first use in a statement of its own.
  const hashKey = await appSecret(db, 'erased_senders');
  return transaction(db, async (t) => {
    const person = await lockLead(t, id);
    if (!person) return undefined;
    const leads = await queryRows(
      t,
      sql`select id, full_name, email from leads where email = ${person.email} order by id for update`,
      personRow,
    );
    const ids = leads.map((l) => l.id);
    const sessionIds = new Set<string>();
    for (const leadId of ids) for (const sessionId of await leadSessionIds(t, leadId)) sessionIds.add(sessionId);
    const prefixes = [...new Set(leads.flatMap((l) => namingPrefixes(l.full_name)))];
    // Before the leads go: notifications.lead_id would be set null by its foreign key.
    const notificationsRemoved = await execute(
      t,
      sql`delete from notifications n where n.lead_id = any(${pgArray(ids)}::uuid[]) or (n.lead_id is null and (
        strpos(n.message, ${person.email}) > 0
        or exists (select 1 from unnest(${pgArray(prefixes)}::text[]) p where starts_with(n.message, p))))`,
    );
    const kept = await queryRows(
      t,
      sql`update appointments set lead_id = null, notes = null, location = null, booked_network = null, visitor_time_zone = null
        where lead_id = any(${pgArray(ids)}::uuid[]) returning id`,
      idRow,
    );
    const appointmentIds = kept.map((a) => a.id);
    // The copies of their calls in the hosts' own calendars go too (written by the queue).
    await removeCopiesOf(t, appointmentIds);
    const eventsRemoved =
      sessionIds.size === 0
        ? 0
        : await execute(t, sql`delete from analytics_events where session_id = any(${pgArray([...sessionIds])}::text[])`);
    await forgetInWeeklyReports(t, ids);
    // Their conversation goes with the leads (cascade); mail from them still in the Inbox goes
    // too, and their address is kept only as a keyed hash, so later mail is not matched back.
    const addresses = [...new Set(leads.map((l) => l.email))];
    // What a mailbox read again from its start would bring back: kept as keyed hashes of the Message-IDs.
    const copies = await queryRows(
      t,
      sql`select distinct message_id from inbound_emails
          where message_id is not null and (lead_id = any(${pgArray(ids)}::uuid[])
            or (lead_id is null and from_address = any(${pgArray(addresses)}::text[])))`,
      z.object({ message_id: z.string() }),
    );
    if (copies.length > 0)
      await execute(
        t,
        sql`insert into erased_messages (message_hash)
            select unnest(${pgArray(copies.map((c) => messageHash(hashKey, c.message_id)))}::text[]) on conflict do nothing`,
      );
    await execute(t, sql`delete from inbound_emails where lead_id is null and from_address = any(${pgArray(addresses)}::text[])`);
    for (const address of addresses) {
      await execute(
        t,
        sql`insert into erased_senders (address_hash) values (${senderHash(hashKey, address)})
            on conflict (address_hash) do update set erased_at = crm_now()`,
      );
    }
    // Trigger leads_webhooks_deleted (migration 0054) reads this: it clears every webhook payload
    // about them, cancels what was pending and sends lead.erased with the ids alone.
    await execute(t, sql`select set_config('crm.lead_erasure', 'on', true)`);
    await execute(t, sql`delete from leads where id = any(${pgArray(ids)}::uuid[])`);
    await redactLeadsInAudit(t, ids);
    return {
      erased: true,
      leads_removed: ids.length,
      appointments_kept: appointmentIds.length,
      appointment_ids: appointmentIds,
      notifications_removed: notificationsRemoved,
      events_removed: eventsRemoved,
    };
  });
}
