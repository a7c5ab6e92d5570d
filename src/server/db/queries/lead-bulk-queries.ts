import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { BulkLeadRequest } from '#shared/schemas/lead';
import type { Db } from '../client.ts';
import { pgArray, queryRows } from '../sql.ts';
import { LeadUpdateRefused, NO_SUCH_OWNER, ownerEventCte } from './leads-queries.ts';

const countRow = z.object({ updated: z.number().int() });

/**
 * One action on the chosen leads (the Leads Manager's bulk bar), as one statement and so one
 * transaction: every lead changes or none does. Ids of leads that no longer exist are not
 * counted. A status change is recorded in lead_status_changes and a new owner as an `owner`
 * event, with the admin, as updateLead records them. The rows are locked in id order, so two
 * bulk actions on overlapping selections wait for each other instead of deadlocking.
 */
export async function bulkUpdateLeads(db: Db, request: BulkLeadRequest, adminId: string): Promise<number> {
  const ids = sql`${pgArray(request.ids)}::uuid[]`;
  const chosen = sql`chosen as (
      select id, status, owner_id from leads where id = any(${ids}) order by id for update
    )`;
  let query;
  switch (request.action) {
    case 'status':
      query = sql`with ${chosen}, updated as (
          update leads l set status = ${request.status}, updated_at = crm_now()
          from chosen c where l.id = c.id
          returning l.id, c.status as old_status, l.status
        ), history as (
          insert into lead_status_changes (lead_id, from_status, to_status, changed_by)
          select id, old_status, status, ${adminId} from updated where status <> old_status
        )
        select count(*)::int as updated from updated`;
      break;
    case 'assign': {
      const owner = request.owner_id;
      if (owner) {
        const [admin] = await queryRows(
          db,
          sql`select count(*)::int as updated from users where id = ${owner}::uuid and deactivated_at is null`,
          countRow,
        );
        if (!admin?.updated) throw new LeadUpdateRefused('owner_id', NO_SUCH_OWNER);
      }
      // Only leads whose owner changes are written (and get an event); all found are counted.
      query = sql`with ${chosen}, updated as (
          update leads l set owner_id = ${owner}::uuid, updated_at = crm_now()
          from chosen c where l.id = c.id and c.owner_id is distinct from ${owner}::uuid
          returning l.id, c.owner_id as old_owner_id, l.owner_id
        ), ${ownerEventCte(adminId)}
        select count(*)::int as updated from chosen`;
      break;
    }
    case 'delete':
      query = sql`with ${chosen}, deleted as (
          delete from leads l using chosen c where l.id = c.id returning l.id
        )
        select count(*)::int as updated from deleted`;
      break;
  }
  const [row] = await queryRows(db, query, countRow);
  return row?.updated ?? 0;
}
