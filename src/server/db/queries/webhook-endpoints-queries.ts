import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { webhookEndpointSchema, type WebhookEndpoint } from '#shared/schemas/webhook';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, pgArray, queryRows } from '../sql.ts';

/** Webhook endpoints (Settings → Integrations → Webhooks); their secrets arrive and leave sealed. */

const endpointColumns = sql`w.id, w.url, w.events, w.paused_at is not null as paused, ${isoTimestamp(sql`w.paused_at`)} as paused_at,
  w.paused_reason, ${isoTimestamp(sql`w.failing_since`)} as failing_since,
  case when w.previous_secret_until > crm_now() then ${isoTimestamp(sql`w.previous_secret_until`)} end as previous_secret_until,
  ${isoTimestamp(sql`w.created_at`)} as created_at, (select u.display_name from users u where u.id = w.created_by) as created_by_name`;

export async function listWebhookEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  return queryRows(db, sql`select ${endpointColumns} from webhook_endpoints w order by w.created_at, w.id`, webhookEndpointSchema);
}

export async function getWebhookEndpoint(db: Db, id: string): Promise<WebhookEndpoint | undefined> {
  const [row] = await queryRows(db, sql`select ${endpointColumns} from webhook_endpoints w where w.id = ${id}`, webhookEndpointSchema);
  return row;
}

export async function countWebhookEndpoints(db: Db): Promise<number> {
  const [row] = await queryRows(db, sql`select count(*)::int as n from webhook_endpoints`, z.object({ n: z.number() }));
  return row?.n ?? 0;
}

export type NewEndpoint = { id: string; url: string; events: string[]; sealedSecret: string; createdBy: string };

export async function createWebhookEndpoint(db: Db, endpoint: NewEndpoint): Promise<WebhookEndpoint> {
  await execute(
    db,
    sql`insert into webhook_endpoints (id, url, events, secret, created_by)
        values (${endpoint.id}, ${endpoint.url}, ${pgArray(endpoint.events)}::text[], ${endpoint.sealedSecret}, ${endpoint.createdBy})`,
  );
  return (await getWebhookEndpoint(db, endpoint.id))!;
}

const sealedRow = z.object({ secret: z.string(), previous_secret: z.string().nullable(), previous_secret_until: z.string().nullable() });
export type SealedSecrets = z.infer<typeof sealedRow>;

/** The sealed secret, and the previous one while it still signs (`at`: now, or a test's time). */
export async function getSealedSecrets(db: Db, id: string, at: Date = new Date()): Promise<SealedSecrets | undefined> {
  return (await getSealedSecretsOf(db, [id], at)).get(id);
}

/** getSealedSecrets for several endpoints in one statement (a worker's batch), by endpoint id. */
export async function getSealedSecretsOf(db: Db, ids: readonly string[], at: Date): Promise<Map<string, SealedSecrets>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows(
    db,
    sql`select id, secret, case when previous_secret_until > ${at.toISOString()}::timestamptz then previous_secret end as previous_secret,
          case when previous_secret_until > ${at.toISOString()}::timestamptz then ${isoTimestamp(sql`previous_secret_until`)} end as previous_secret_until
        from webhook_endpoints where id = any(${pgArray(ids)}::uuid[])`,
    sealedRow.extend({ id: z.uuid() }),
  );
  return new Map(rows.map(({ id, ...sealed }) => [id, sealed]));
}

export type EndpointChange = { url?: string; events?: string[]; paused?: boolean; rotatedSecret?: string };

/** Changes what is given; a rotation keeps the old secret signing for 24 hours. Undefined: no such endpoint. */
export async function updateWebhookEndpoint(db: Db, id: string, change: EndpointChange): Promise<WebhookEndpoint | undefined> {
  const sets = [sql`updated_at = crm_now()`];
  if (change.url !== undefined) sets.push(sql`url = ${change.url}`);
  if (change.events !== undefined) sets.push(sql`events = ${pgArray(change.events)}::text[]`);
  if (change.paused === true)
    sets.push(sql`paused_at = coalesce(paused_at, crm_now()), paused_reason = coalesce(paused_reason, 'Paused by an owner')`);
  // Resumed: its failures start counting afresh.
  if (change.paused === false) sets.push(sql`paused_at = null, paused_reason = null, failing_since = null`);
  if (change.rotatedSecret !== undefined)
    sets.push(sql`previous_secret = secret, previous_secret_until = crm_now() + interval '24 hours', secret = ${change.rotatedSecret}`);
  const changed = await execute(db, sql`update webhook_endpoints set ${sql.join(sets, sql`, `)} where id = ${id}`);
  return changed === 0 ? undefined : getWebhookEndpoint(db, id);
}

/** Removes the endpoint with its deliveries and log; its URL, or undefined when there was none. */
export async function deleteWebhookEndpoint(db: Db, id: string): Promise<string | undefined> {
  const [row] = await queryRows(db, sql`delete from webhook_endpoints where id = ${id} returning url`, z.object({ url: z.string() }));
  return row?.url;
}
