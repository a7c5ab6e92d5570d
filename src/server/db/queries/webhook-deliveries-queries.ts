import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { webhookAttemptSchema, type WebhookAttempt } from '#shared/schemas/webhook';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, pgArray, queryRows } from '../sql.ts';

/**
 * The webhook outbox: deliveries (one event to one endpoint) claimed with a lease, attempts
 * logged, endpoints paused after 3 days of failures. Every function takes the time it acts at
 * (`now`), so the worker's tests drive the clock (the database's own crm_now() is not used here).
 */

const ts = (at: Date) => sql`${at.toISOString()}::timestamptz`;

const claimedRow = z.object({
  id: z.uuid(),
  endpoint_id: z.uuid(),
  url: z.string(),
  event_id: z.uuid(),
  event_type: z.string(),
  event_created_at: z.string(),
  object_id: z.uuid().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  payload: z.string().nullable(),
  erased: z.boolean(),
  attempts: z.number(),
  created_at: z.string(),
});
export type ClaimedDelivery = z.infer<typeof claimedRow>;

/** The advisory lock that lets one process at a time route events (bookings use 4201311, public mail 4201312). */
const ROUTING_LOCK = 4_201_313;

/**
 * Gives up to `limit` recorded events, oldest first, one delivery per endpoint listening to
 * their type (unpaused, and added before the event happened); an erased event gets none. The
 * change's transaction records the event alone (a delivery row in every lead submission's
 * transaction slowed them: docs/performance.md), so this runs after the commit, in the worker.
 * One process routes at a time (an advisory lock; the others skip), so an object's events get
 * their deliveries in order. Answers how many events it routed.
 */
export async function routeWebhookEvents(db: Db, limit: number): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`
    with lock as materialized (select pg_try_advisory_xact_lock(${ROUTING_LOCK}::int, 0) as got),
    ev as (
      update webhook_events e set routed = true
      from (select id from webhook_events where not routed order by seq limit ${limit}) pick, lock
      where lock.got and e.id = pick.id and not e.routed
      returning e.id, e.seq, e.object_id, e.type, e.created_at, e.erased
    ),
    d as (
      insert into webhook_deliveries (endpoint_id, event_id, object_id, event_seq, created_at, next_attempt_at)
      select w.id, ev.id, ev.object_id, ev.seq, ev.created_at, ev.created_at
      from ev join webhook_endpoints w on w.paused_at is null and w.events @> array[ev.type] and w.created_at <= ev.created_at
      where not ev.erased
      on conflict do nothing
    )
    select count(*)::int as n from ev`,
    z.object({ n: z.number() }),
  );
  return row?.n ?? 0;
}

/**
 * Due deliveries to unpaused endpoints, each leased for `leaseSeconds` (`for update skip locked`:
 * no other process takes them). A delivery waits while an earlier event of the same object to
 * the same endpoint is pending, so each endpoint gets an object's events in order; a lease that
 * ran out (a process killed mid-delivery) makes its delivery due again.
 */
export function claimDueDeliveries(db: Db, now: Date, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
  return queryRows(
    db,
    sql`
    with claimed as (
      update webhook_deliveries d set locked_until = ${ts(now)} + make_interval(secs => ${leaseSeconds})
      where d.id in (
        select c.id from webhook_deliveries c join webhook_endpoints w on w.id = c.endpoint_id and w.paused_at is null
        where c.status = 'pending' and c.next_attempt_at <= ${ts(now)} and (c.locked_until is null or c.locked_until < ${ts(now)})
          and not exists (select 1 from webhook_deliveries p where p.endpoint_id = c.endpoint_id and p.object_id = c.object_id
                          and p.status = 'pending' and p.event_seq < c.event_seq)
        order by c.next_attempt_at, c.event_seq
        limit ${limit}
        for update of c skip locked)
      returning d.id, d.endpoint_id, d.event_id, d.attempts, d.created_at
    )
    select c.id, c.endpoint_id, w.url, c.event_id, e.type as event_type, ${isoTimestamp(sql`e.created_at`)} as event_created_at,
      e.object_id, e.data, e.payload, e.erased, c.attempts, ${isoTimestamp(sql`c.created_at`)} as created_at
    from claimed c join webhook_events e on e.id = c.event_id join webhook_endpoints w on w.id = c.endpoint_id
    order by e.seq`,
    claimedRow,
  );
}

/**
 * Freezes each event's payload (event id → payload): the first one frozen wins, so two processes
 * freezing at once send the same bytes. The answer holds each event's frozen payload; an erased
 * event is absent.
 */
export async function freezePayloads(db: Db, payloads: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  if (payloads.size === 0) return new Map();
  const rows = await queryRows(
    db,
    sql`update webhook_events e set payload = coalesce(e.payload, v.payload)
        from unnest(${pgArray([...payloads.keys()])}::uuid[], ${pgArray([...payloads.values()])}::text[]) as v(id, payload)
        where e.id = v.id and not e.erased returning e.id, e.payload`,
    z.object({ id: z.uuid(), payload: z.string() }),
  );
  return new Map(rows.map((r) => [r.id, r.payload]));
}

export type AttemptOutcome = {
  deliveryId: string;
  endpointId: string;
  at: Date;
  httpStatus: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
};

/**
 * Logs successful attempts and records them (one statement for all): each delivery done, its
 * endpoint no longer failing.
 */
export async function recordDelivered(db: Db, outcomes: readonly AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const column = (values: (string | number | null)[], type: string) => sql`${pgArray(values)}::${sql.raw(type)}[]`;
  await execute(
    db,
    sql`
    with v as (
      select * from unnest(
        ${column(
          outcomes.map((o) => o.deliveryId),
          'uuid',
        )}, ${column(
          outcomes.map((o) => o.endpointId),
          'uuid',
        )},
        ${column(
          outcomes.map((o) => o.at.toISOString()),
          'timestamptz',
        )}, ${column(
          outcomes.map((o) => o.httpStatus),
          'int',
        )},
        ${column(
          outcomes.map((o) => Math.round(o.durationMs)),
          'int',
        )}, ${column(
          outcomes.map((o) => o.responseBody),
          'text',
        )}
      ) as v(delivery_id, endpoint_id, at, http_status, duration_ms, response_body)
    ),
    attempt as (
      insert into webhook_attempts (delivery_id, endpoint_id, at, http_status, duration_ms, response_body)
      select delivery_id, endpoint_id, at, http_status, duration_ms, response_body from v
    ),
    endpoint as (update webhook_endpoints set failing_since = null where id in (select endpoint_id from v) and failing_since is not null)
    update webhook_deliveries d set status = 'delivered', attempts = d.attempts + 1, locked_until = null, finished_at = v.at,
      last_status = v.http_status, last_error = null
    from v where d.id = v.delivery_id and d.status = 'pending'`,
  );
}

export type FailureResult = { paused: { url: string; createdBy: string | null } | undefined };

/**
 * Logs a failed attempt: the delivery due again at `retryAt` (or failed, when null), the endpoint
 * failing since its first failure. An endpoint failing for `pauseAfterSeconds`, or `pauseNow`
 * (a 410 Gone), is paused with `reason`; the answer says so, once.
 */
export async function recordFailed(
  db: Db,
  outcome: AttemptOutcome,
  retryAt: Date | null,
  pause: { afterSeconds: number; now: boolean; reason: string },
): Promise<FailureResult> {
  await execute(
    db,
    sql`
    with attempt as (${attemptInsert(outcome)})
    update webhook_deliveries set attempts = attempts + 1, locked_until = null, last_status = ${outcome.httpStatus},
      last_error = ${outcome.error?.slice(0, 1000) ?? null},
      status = ${retryAt === null ? 'failed' : 'pending'}, finished_at = ${retryAt === null ? ts(outcome.at) : null},
      next_attempt_at = ${retryAt === null ? sql`next_attempt_at` : ts(retryAt)}
    where id = ${outcome.deliveryId} and status = 'pending'`,
  );
  // Paused by this statement only (the old row was not paused): told once.
  const pauses = sql`(${pause.now} or coalesce(w.failing_since, ${ts(outcome.at)}) <= ${ts(outcome.at)} - make_interval(secs => ${pause.afterSeconds}))`;
  const [paused] = await queryRows(
    db,
    sql`
    update webhook_endpoints w set failing_since = coalesce(w.failing_since, ${ts(outcome.at)}),
      paused_at = case when ${pauses} then ${ts(outcome.at)} end,
      paused_reason = case when ${pauses} then ${pause.reason} end
    where w.id = ${outcome.endpointId} and w.paused_at is null
    returning w.paused_at is not null as paused, w.url, w.created_by`,
    z.object({ paused: z.boolean(), url: z.string(), created_by: z.uuid().nullable() }),
  );
  return { paused: paused?.paused ? { url: paused.url, createdBy: paused.created_by } : undefined };
}

function attemptInsert(o: AttemptOutcome) {
  return sql`insert into webhook_attempts (delivery_id, endpoint_id, at, http_status, duration_ms, response_body, error)
    values (${o.deliveryId}, ${o.endpointId}, ${ts(o.at)}, ${o.httpStatus}, ${Math.round(o.durationMs)}, ${o.responseBody}, ${o.error?.slice(0, 1000) ?? null})`;
}

/** A delivery whose payload cannot be built (erased meanwhile): cancelled, never sent. */
export async function cancelDelivery(db: Db, id: string, reason: string, at: Date): Promise<void> {
  await execute(
    db,
    sql`update webhook_deliveries set status = 'cancelled', locked_until = null, finished_at = ${ts(at)}, last_error = ${reason}
        where id = ${id} and status = 'pending'`,
  );
}

/** Gives claimed deliveries back untried (the worker is stopping). */
export async function releaseDeliveries(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await execute(
    db,
    sql`update webhook_deliveries set locked_until = null where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
}

/** Tells the endpoint's creator (the owners when they are gone) that it was paused. */
export async function notifyEndpointPaused(db: Db, createdBy: string | null, message: string): Promise<void> {
  await execute(
    db,
    sql`insert into notifications (user_id, type, message)
        select u.id, 'webhook', ${message} from users u
        where u.deactivated_at is null and (u.id = ${createdBy}::uuid
          or (u.role = 'owner' and not exists (select 1 from users c where c.id = ${createdBy}::uuid and c.deactivated_at is null)))`,
  );
}

/** The endpoint's last `limit` attempts, newest first. */
export function listAttempts(db: Db, endpointId: string, limit = 100): Promise<WebhookAttempt[]> {
  return queryRows(
    db,
    sql`select a.id::float8 as id, a.delivery_id, d.event_id, e.type as event_type, d.status as delivery_status, ${isoTimestamp(sql`a.at`)} as at,
          a.http_status, a.duration_ms, a.response_body, a.error
        from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id join webhook_events e on e.id = d.event_id
        where a.endpoint_id = ${endpointId}
        order by a.at desc, a.id desc limit ${limit}`,
    webhookAttemptSchema,
  );
}

export type ReplayRefusal = 'not_found' | 'erased';

/** The event of a delivery sent again to its endpoint, as a new delivery (due now, after the object's earlier pending events). */
export async function replayDelivery(db: Db, endpointId: string, deliveryId: string, now: Date): Promise<string | ReplayRefusal> {
  const [found] = await queryRows(
    db,
    sql`select e.erased from webhook_deliveries d join webhook_events e on e.id = d.event_id
        where d.id = ${deliveryId} and d.endpoint_id = ${endpointId}`,
    z.object({ erased: z.boolean() }),
  );
  if (!found) return 'not_found';
  if (found.erased) return 'erased';
  const [row] = await queryRows(
    db,
    sql`insert into webhook_deliveries (endpoint_id, event_id, object_id, event_seq, replay_of, next_attempt_at)
        select d.endpoint_id, d.event_id, d.object_id, d.event_seq, coalesce(d.replay_of, d.id), ${ts(now)}
        from webhook_deliveries d where d.id = ${deliveryId}
        returning id`,
    z.object({ id: z.uuid() }),
  );
  return row!.id;
}

/** A `webhook.test` event and its delivery to one endpoint, claimed by the caller, who sends it now. */
export async function createTestDelivery(db: Db, endpointId: string, now: Date, leaseSeconds: number): Promise<ClaimedDelivery> {
  const [row] = await queryRows(
    db,
    sql`
    with ev as (
      insert into webhook_events (type, created_at, routed) values ('webhook.test', ${ts(now)}, true) returning id, seq, created_at
    ), d as (
      insert into webhook_deliveries (endpoint_id, event_id, event_seq, locked_until)
      select ${endpointId}, ev.id, ev.seq, ${ts(now)} + make_interval(secs => ${leaseSeconds}) from ev
      returning id, endpoint_id, event_id, attempts, created_at
    )
    select d.id, d.endpoint_id, w.url, d.event_id, 'webhook.test' as event_type, ${isoTimestamp(sql`ev.created_at`)} as event_created_at,
      null::uuid as object_id, null::jsonb as data, null::text as payload, false as erased, d.attempts, ${isoTimestamp(sql`d.created_at`)} as created_at
    from d join ev on true join webhook_endpoints w on w.id = d.endpoint_id`,
    claimedRow,
  );
  return row!;
}

/** The log's 30 days: older attempts go, and events older than that with nothing pending. */
export async function deleteOldWebhookLog(db: Db, now: Date, days = 30): Promise<number> {
  const attempts = await execute(db, sql`delete from webhook_attempts where at < ${ts(now)} - make_interval(days => ${days})`);
  const events = await execute(
    db,
    sql`delete from webhook_events e where e.created_at < ${ts(now)} - make_interval(days => ${days})
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')`,
  );
  return attempts + events;
}
