import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';

/**
 * Claims a lead form token for one submission: true when the token is new, or was already
 * claimed by this very submission (a retry of it, which must keep working); false when another
 * submission used it. One statement: two processes claiming one token at once are ordered by
 * the primary key, and the second reads the first's submission (`do update` returns the row
 * that won; `do nothing` would return nothing).
 */
export async function claimFormToken(db: Db, tokenHash: string, submissionId: string, expiresAtMs: number): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`
    insert into form_token_uses (token_hash, submission_id, expires_at)
    values (${tokenHash}, ${submissionId}::uuid, to_timestamp(${expiresAtMs / 1000}::float8))
    on conflict (token_hash) do update set submission_id = form_token_uses.submission_id
    returning submission_id = ${submissionId}::uuid as same`,
    z.object({ same: z.boolean() }),
  );
  return row?.same === true;
}

/** Uses of tokens that have expired anyway (every process refuses them by their age). */
export async function deleteExpiredFormTokenUses(db: Db): Promise<number> {
  return execute(db, sql`delete from form_token_uses where expires_at < now()`);
}
