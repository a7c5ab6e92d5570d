import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { execute } from '../sql.ts';

/**
 * Claims a lead form token for one submission: `same` is true when the token is new, or was
 * already claimed by this very submission (a retry of it, which must keep working); false when
 * another submission used it. One statement: two claims of one token at once are ordered by the
 * primary key, and the second reads the first's submission (`do update` returns the row that
 * won; `do nothing` would return nothing). The public form runs it in the statement that stores
 * a new person's lead (createLead), so a submission costs one commit and a lead the database
 * refused keeps no claim; a known person's claim is kept, naming that submission.
 */
export const formTokenClaim = (use: FormTokenUse, submissionId: string) => sql`
    insert into form_token_uses (token_hash, submission_id, expires_at)
    values (${use.hash}, ${submissionId}::uuid, to_timestamp(${use.expiresAtMs / 1000}::float8))
    on conflict (token_hash) do update set submission_id = form_token_uses.submission_id
    returning submission_id = ${submissionId}::uuid as same`;

/** A form token's hash and when its use may be forgotten (it is refused by its age by then). */
export type FormTokenUse = { hash: string; expiresAtMs: number };

/** Uses of tokens that have expired anyway (every process refuses them by their age). */
export async function deleteExpiredFormTokenUses(db: Db): Promise<number> {
  return execute(db, sql`delete from form_token_uses where expires_at < crm_now()`);
}
