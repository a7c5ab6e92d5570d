import { createPglite } from '../../src/server/db/client.ts';

/**
 * Counts rows in an embedded database directory. Only after its server has stopped: PGlite
 * takes no lock, and two processes on one directory corrupt it.
 */
export async function countPgliteRows(dataDir: string, query: string): Promise<number> {
  const db = createPglite({ dataDir });
  try {
    const result = await db.query<{ n: number | string }>(query);
    return Number(result.rows[0]?.n ?? Number.NaN);
  } finally {
    await db.close();
  }
}
