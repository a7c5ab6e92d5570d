import type { Db } from '../db/client.ts';
import { dismissStopRequest } from '../db/queries/inbound-emails-queries.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * A reply that seems to ask us to stop writing (docs/product-rules.md, "The lead page", Do not
 * email): only a suggestion, kept with the reply (`asks_to_stop`, set as it is read:
 * inbound-mail.ts). The lead's page offers to mark the lead Do not email, which staff confirm, or
 * to say it is not such a request.
 */

/**
 * Words that ask a firm to stop writing, in a subject or the first lines of a reply (before any
 * quoted earlier message). Only a suggestion: staff confirm it on the lead's page.
 */
const STOP_WORDS =
  /\b(unsubscribe|opt[- ]?out|stop (?:e-?mailing|emailing|sending|writing to|contacting)|remove me|take me off|do not (?:e-?mail|contact|write to) me|don[’']?t (?:e-?mail|contact|write to) me|no more e-?mails?)\b/i;

/** Whether a reply's subject or its own first lines (not a quoted earlier message) ask us to stop writing. */
export function asksToStop(subject: string, body: string): boolean {
  const opening = body
    .split('\n')
    .filter((line) => !line.startsWith('>'))
    .join('\n')
    .split(/\n(?:On .{0,200} wrote:|-----Original Message-----|From: )/)[0]!
    .slice(0, 600);
  return STOP_WORDS.test(subject) || STOP_WORDS.test(opening);
}

/** Staff say the lead's reply `replyId` does not ask us to stop (the notice goes); 404 for no such reply asking it. */
export async function notAStopRequest(db: Db, leadId: string, replyId: string): Promise<void> {
  if (!(await dismissStopRequest(db, leadId, replyId))) throw new AppError('not_found', 'No such request on this lead.');
}
