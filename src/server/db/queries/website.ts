import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { defaultWebsiteContent, websiteContentSchema, type WebsiteContent } from '#shared/schemas/website';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';

export type StoredWebsite = { content: WebsiteContent; updatedAt: string | null };

/** The website's words: the saved ones, or the defaults (legal name: the site name) when none are saved or they no longer parse. */
export async function getWebsiteContent(db: Db, siteName: string): Promise<StoredWebsite> {
  const [row] = await queryRows(db, sql`select content, updated_at::text as updated_at from website_settings where id = 1`, z.object({ content: z.unknown(), updated_at: z.string() }));
  const parsed = websiteContentSchema.safeParse(row?.content);
  return parsed.success ? { content: parsed.data, updatedAt: row!.updated_at } : { content: defaultWebsiteContent(siteName), updatedAt: null };
}

/** When the words were last saved (null: never): cheap, for the other processes to notice a save. */
export async function websiteUpdatedAt(db: Db): Promise<string | null> {
  const [row] = await queryRows(db, sql`select updated_at::text as updated_at from website_settings where id = 1`, z.object({ updated_at: z.string() }));
  return row?.updated_at ?? null;
}

export async function saveWebsiteContent(db: Db, content: WebsiteContent): Promise<void> {
  await execute(db, sql`
    insert into website_settings (id, content, updated_at) values (1, ${JSON.stringify(content)}::jsonb, clock_timestamp())
    on conflict (id) do update set content = excluded.content, updated_at = excluded.updated_at`);
}
