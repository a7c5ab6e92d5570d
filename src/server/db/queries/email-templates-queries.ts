import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { EMAIL_TEMPLATES_MAX } from '#shared/constants';
import { emailTemplateSchema, type EmailTemplate, type EmailTemplateRequest } from '#shared/schemas/email-template';
import type { Db } from '../client.ts';
import { unlessNameTaken } from '../database-faults.ts';
import { isoTimestamp, queryRows } from '../sql.ts';

/** Email templates (Settings → Email templates): the owners write them, everyone uses them. */

const columns = sql`t.id, t.name, t.subject, t.body, ${isoTimestamp(sql`t.updated_at`)} as updated_at,
  (select u.display_name from users u where u.id = t.updated_by) as updated_by_name`;

/** Every template, by name. */
export function listEmailTemplates(db: Db): Promise<EmailTemplate[]> {
  return queryRows(db, sql`select ${columns} from email_templates t order by lower(t.name), t.id`, emailTemplateSchema);
}

export async function getEmailTemplate(db: Db, id: string): Promise<EmailTemplate | undefined> {
  const [row] = await queryRows(db, sql`select ${columns} from email_templates t where t.id = ${id}`, emailTemplateSchema);
  return row;
}

/** Why a template could not be saved: its name is another's (whatever the case), or the firm has as many as it may keep. */
export type TemplateRefusal = 'name_taken' | 'too_many' | 'not_found';

export async function createEmailTemplate(db: Db, by: string, t: EmailTemplateRequest): Promise<EmailTemplate | TemplateRefusal> {
  const rows = await unlessNameTaken(
    queryRows(
      db,
      sql`
      with added as (
        insert into email_templates (name, subject, body, updated_by)
        select ${t.name}, ${t.subject}, ${t.body}, ${by}::uuid
        where (select count(*) from email_templates) < ${EMAIL_TEMPLATES_MAX}
        on conflict ((lower(name))) do nothing
        returning *)
      select ${columns} from added t`,
      emailTemplateSchema,
    ),
  );
  if (rows === 'name_taken') return rows;
  if (rows[0]) return rows[0];
  const [count] = await queryRows(db, sql`select count(*)::int as n from email_templates`, z.object({ n: z.number() }));
  return (count?.n ?? 0) >= EMAIL_TEMPLATES_MAX ? 'too_many' : 'name_taken';
}

export async function updateEmailTemplate(
  db: Db,
  id: string,
  by: string,
  t: EmailTemplateRequest,
): Promise<{ before: EmailTemplate; after: EmailTemplate } | TemplateRefusal> {
  const before = await getEmailTemplate(db, id);
  if (!before) return 'not_found';
  const rows = await unlessNameTaken(
    queryRows(
      db,
      sql`
      with changed as (
        update email_templates set name = ${t.name}, subject = ${t.subject}, body = ${t.body}, updated_by = ${by}::uuid, updated_at = crm_now()
        where id = ${id}
        returning *)
      select ${columns} from changed t`,
      emailTemplateSchema,
    ),
  );
  if (rows === 'name_taken') return rows;
  return rows[0] ? { before, after: rows[0] } : 'not_found';
}

/** The template's name, once it is gone; undefined for none. */
export async function deleteEmailTemplate(db: Db, id: string): Promise<string | undefined> {
  const [row] = await queryRows(db, sql`delete from email_templates where id = ${id} returning name`, z.object({ name: z.string() }));
  return row?.name;
}
