import type { Db } from '../db/client.ts';
import { markRepliesRead } from '../db/queries/inbound-emails-queries.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * Whether anyone has read a lead's replies (docs/product-rules.md, "Timeline"): a reply is
 * **Unread** until the lead's page has shown it once, then read for everyone. The page says what
 * it showed (`upTo`, the newest reply's time as the page had it, to the millisecond): a reply that
 * came after the page was drawn stays unread (db/queries/inbound-emails-queries.ts, markRepliesRead,
 * compares in the statement that marks them, so one arriving meanwhile is never marked unseen).
 */
export async function markLeadRepliesRead(db: Db, leadId: string, upTo?: string): Promise<number> {
  const marked = await markRepliesRead(db, leadId, upTo);
  if (marked === undefined) throw new AppError('not_found', 'Lead not found.');
  return marked;
}
