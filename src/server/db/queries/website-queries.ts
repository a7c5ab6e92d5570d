import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { websiteContentSchema, type WebsiteContent } from '#shared/schemas/website';
import { defaultWebsiteContent, type SiteDefaults } from '#shared/website-content';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';

export type StoredWebsite = { content: WebsiteContent; updatedAt: string | null };

const storedRow = z.object({ content: z.unknown(), updated_at: z.string() });
/** Built once: zod's partial() makes a new schema at each call, and every website booking reads the words. */
const savedParts = websiteContentSchema.partial();

/**
 * The website's words: the saved ones, each part not saved yet from the defaults (the brand,
 * email, phone and legal name from the environment's `site`), or all defaults when none are
 * saved or they no longer parse. Words saved before a part became editable keep working: the
 * new part takes its default (the About point naming the city names the saved city).
 */
export async function getWebsiteContent(db: Db, site: SiteDefaults): Promise<StoredWebsite> {
  const [row] = await queryRows(db, sql`select content, updated_at::text as updated_at from website_settings where id = 1`, storedRow);
  return websiteFrom(row, site);
}

/**
 * The words from the saved row (undefined: none saved), as getWebsiteContent answers them: for
 * a statement that reads the row along with other things (a website booking's).
 */
export function websiteFrom(row: { content: unknown; updated_at: string } | undefined, site: SiteDefaults): StoredWebsite {
  // Parsed part by part: a part saved before it was editable is absent, and takes its default
  // (the defaults from the environment are shown as they are, never checked here).
  const parsed = row && savedParts.safeParse(row.content);
  if (!row || !parsed?.success) return { content: defaultWebsiteContent(site.name, site), updatedAt: null };
  const saved = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as Partial<WebsiteContent>;
  return { content: { ...defaultWebsiteContent(site.name, site, saved.city), ...saved }, updatedAt: row.updated_at };
}

/** When the words were last saved (null: never): cheap, for the other processes to notice a save. */
export async function websiteUpdatedAt(db: Db): Promise<string | null> {
  const [row] = await queryRows(
    db,
    sql`select updated_at::text as updated_at from website_settings where id = 1`,
    z.object({ updated_at: z.string() }),
  );
  return row?.updated_at ?? null;
}

export async function saveWebsiteContent(db: Db, content: WebsiteContent): Promise<void> {
  await execute(
    db,
    sql`
    insert into website_settings (id, content, updated_at) values (1, ${JSON.stringify(content)}::jsonb, clock_timestamp())
    on conflict (id) do update set content = excluded.content, updated_at = excluded.updated_at`,
  );
}
