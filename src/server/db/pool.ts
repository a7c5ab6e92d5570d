import pg from 'pg';

/**
 * Did the server refuse the statement, on a connection that stays usable? An ERROR (a
 * constraint refusing a row, a deadlock victim, a bad cast) ends the statement, not the
 * session; FATAL and PANIC end the session, and anything that is not a server message (a
 * socket closing, a timeout) leaves the connection in an unknown state.
 */
export function isStatementError(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.severity !== 'FATAL' && error.severity !== 'PANIC';
}

/**
 * pg's Pool, but a statement the server refuses keeps its connection. pg-pool's own
 * `query()` closes the connection after any error, so every refused booking (the
 * no-overlap constraint) cost a new connection: a TCP handshake, a server process, its
 * prepared statements made again. Under a race for the same times that was most of the
 * cost of a refusal. Transactions are unaffected (drizzle checks out a client for those).
 * The class name keeps "Pool": drizzle recognises a pool by it.
 */
export class StatementErrorTolerantPool extends pg.Pool {
  constructor(config?: pg.PoolConfig) {
    super(config);
    const poolQuery = pg.Pool.prototype.query;
    // Assigned rather than overridden: pg's typings give query() overloads no override can match.
    this.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      // The callback form and submittables (cursors, streams) keep pg-pool's own handling.
      const submittable = typeof (config as { submit?: unknown } | null)?.submit === 'function';
      if (typeof values === 'function' || typeof callback === 'function' || submittable) {
        return (poolQuery as (...a: unknown[]) => unknown).call(this, config, values, callback);
      }
      return this.connect().then(async (client) => {
        // A connection that fails during the query also emits 'error' (pg-pool's query() listens too).
        let lost: unknown;
        const onError = (error: unknown) => (lost = error);
        client.once('error', onError);
        try {
          const result = await client.query(config as pg.QueryConfig, values as unknown[] | undefined);
          client.removeListener('error', onError);
          client.release();
          return result;
        } catch (error) {
          client.removeListener('error', onError);
          client.release(lost === undefined && isStatementError(error) ? undefined : ((lost ?? error) as Error));
          throw error;
        }
      });
    }) as pg.Pool['query'];
  }
}
