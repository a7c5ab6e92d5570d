import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { noteSchema, type Note } from '#shared/schemas/lead-workspace';
import type { Db } from '../client.ts';
import { isoTimestamp, queryRows } from '../sql.ts';

/** What staff write about a lead. Only its author may change or delete a note. */

const noteColumns = sql`n.id, n.lead_id, n.body, n.author_id, (select u.email from users u where u.id = n.author_id) as author_email,
  (select u.display_name from users u where u.id = n.author_id) as author_name,
  ${isoTimestamp(sql`n.created_at`)} as created_at, ${isoTimestamp(sql`n.updated_at`)} as updated_at`;

/** Undefined when the lead does not exist. */
export async function createNote(db: Db, leadId: string, authorId: string, body: string): Promise<Note | undefined> {
  const [note] = await queryRows(
    db,
    sql`
    with n as (
      insert into lead_notes (lead_id, author_id, body) select id, ${authorId}::uuid, ${body} from leads where id = ${leadId}
      returning *
    )
    select ${noteColumns} from n`,
    noteSchema,
  );
  return note;
}

/** Why a note was not changed: no such note on that lead, or someone else wrote it. */
export type NoteRefusal = 'not_found' | 'not_author';

/** What stops `authorId` changing the note: it is not on that lead (or gone), or another admin wrote it. */
async function refusal(db: Db, leadId: string, noteId: string): Promise<NoteRefusal> {
  const rows = await queryRows(
    db,
    sql`select 1 as found from lead_notes where id = ${noteId} and lead_id = ${leadId}`,
    z.object({ found: z.number() }),
  );
  return rows.length > 0 ? 'not_author' : 'not_found';
}

/** A new body (updated_at moves), if `authorId` wrote it. */
export async function updateNote(db: Db, leadId: string, noteId: string, authorId: string, body: string): Promise<Note | NoteRefusal> {
  const [note] = await queryRows(
    db,
    sql`
    with n as (
      update lead_notes set body = ${body}, updated_at = crm_now()
      where id = ${noteId} and lead_id = ${leadId} and author_id = ${authorId}::uuid
      returning *
    )
    select ${noteColumns} from n`,
    noteSchema,
  );
  return note ?? refusal(db, leadId, noteId);
}

/** Deletes it, if `authorId` wrote it. */
export async function deleteNote(db: Db, leadId: string, noteId: string, authorId: string): Promise<true | NoteRefusal> {
  const rows = await queryRows(
    db,
    sql`delete from lead_notes where id = ${noteId} and lead_id = ${leadId} and author_id = ${authorId}::uuid returning id`,
    z.object({ id: z.uuid() }),
  );
  return rows.length > 0 ? true : refusal(db, leadId, noteId);
}
