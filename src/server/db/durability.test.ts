import { createPglite } from './client.ts';
import { describe, expect, it } from 'vitest';
import { startServer, stopServer, tempDir } from '../test/process.ts';

/**
 * A lead whose POST was answered 2xx must survive `kill -9` of the server at any moment.
 * PGlite hands every WAL write to the OS before a commit returns (it skips fsync, so a
 * power cut is another matter: see the README), which is what a killed process needs.
 */
describe('durability of acknowledged leads on the embedded database', () => {
  it('keeps every acknowledged lead across repeated kill -9 during a stream of submissions', async () => {
    const dataDir = tempDir('durability');
    const acknowledged: string[] = [];
    let attempted = 0;

    for (const killAfterMs of [400, 900, 1500]) {
      const server = await startServer({ DATA_DIR: dataDir, LEAD_MIN_FILL_SECONDS: '0', LEAD_RATE_LIMIT: '0' });
      let killed = false;
      const worker = async () => {
        while (!killed) {
          const submission_id = crypto.randomUUID();
          attempted++;
          try {
            const res = await fetch(`${server.url}/api/public/leads`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                full_name: 'Durable Lead',
                email: 'durable@example.com',
                phone: '555',
                property_types: ['commercial'],
                submission_id,
                fill_ms: 5000,
              }),
            });
            if (res.status === 201) acknowledged.push(submission_id);
          } catch {
            // the server died mid-request: not acknowledged, so no promise was made
          }
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      await new Promise((r) => setTimeout(r, killAfterMs));
      server.child.kill('SIGKILL');
      killed = true;
      await server.exited;
      await Promise.all(workers);
    }

    // Restart once more (crash recovery), then stop cleanly and read the rows directly.
    const last = await startServer({ DATA_DIR: dataDir });
    await stopServer(last);
    const db = createPglite({ dataDir });
    const { rows } = await db.query<{ submission_id: string }>('select submission_id from leads');
    await db.close();

    const stored = new Set(rows.map((r) => r.submission_id));
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(acknowledged.length).toBeGreaterThan(50);
    expect(attempted).toBeGreaterThan(acknowledged.length); // the kills did cut requests off
    console.info(`durability: ${acknowledged.length} acknowledged of ${attempted} attempted, ${lost.length} lost`);
    expect(lost).toEqual([]);
  }, 120_000);
});
