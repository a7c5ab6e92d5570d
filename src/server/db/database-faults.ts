/**
 * Failures that say "the database cannot serve right now" rather than "this request is
 * wrong": the server stays up and answers 503, and the same request succeeds once the
 * database is back (PostgreSQL restarted, a failover, a full disk freed).
 * SQLSTATEs: https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
export type DatabaseFault = 'unavailable' | 'disk_full';

export const DATABASE_FAULT_MESSAGES: Record<DatabaseFault, string> = {
  unavailable: 'The database is unavailable. Please try again shortly.',
  disk_full: 'The server is out of storage space, so nothing was saved. Please try again later.',
};

// Socket errors while connecting to PostgreSQL or talking to it.
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// node-postgres says these without a code: the socket closed under a query, a client whose
// connection died, or no connection within connectionTimeoutMillis.
const DRIVER_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable)/;

function sqlStateFault(code: string): DatabaseFault | undefined {
  if (code === '53100') return 'disk_full'; // disk_full
  if (code.startsWith('08')) return 'unavailable'; // connection exceptions
  // admin_shutdown, crash_shutdown, cannot_connect_now (starting up, shutting down, recovering)
  if (code === '57P01' || code === '57P02' || code === '57P03') return 'unavailable';
  if (code === '53300') return 'unavailable'; // too_many_connections
  if (code === '25006') return 'unavailable'; // read_only_sql_transaction: a standby after a failover
  return undefined;
}

/** An error and the errors it wraps (Drizzle wraps the driver's error as its `cause`), a few deep. */
function* errorChain(err: unknown): Generator<object> {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

/** The SQLSTATE of a database error, whether thrown by the driver or wrapped by Drizzle. */
export function sqlState(err: unknown): string | undefined {
  for (const e of errorChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Two saves of one name at once (a template, a stage, a lost reason): the unique index decides,
 * and the loser hears the name is taken.
 */
export async function unlessNameTaken<T>(write: Promise<T>): Promise<T | 'name_taken'> {
  try {
    return await write;
  } catch (error) {
    if (sqlState(error) === '23505') return 'name_taken';
    throw error;
  }
}

/**
 * Did another appointment take the time meanwhile? The no-overlap constraint refused this one
 * (23P01), or two overlapping inserts waited on each other's check and PostgreSQL cancelled
 * this one as a deadlock (40P01): either way the time went to the other.
 */
export function isOverlapViolation(err: unknown): boolean {
  for (const e of errorChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (code === '23P01' || code === '40P01') return true;
  }
  return false;
}

/** The fault behind an error (a driver error, or one wrapped by Drizzle as its cause), if any. */
export function databaseFault(err: unknown): DatabaseFault | undefined {
  for (const e of errorChain(err)) {
    const { code, message, errors, name, errno } = e as {
      code?: unknown;
      message?: unknown;
      errors?: unknown;
      name?: unknown;
      errno?: unknown;
    };
    if (code === 'ENOSPC' || (name === 'ErrnoError' && errno === 51)) return 'disk_full'; // PGlite's file system: WASI ENOSPC
    if (typeof code === 'string') {
      if (NETWORK_ERRORS.has(code)) return 'unavailable';
      const fault = /^[0-9A-Z]{5}$/.test(code) ? sqlStateFault(code) : undefined;
      if (fault) return fault;
    }
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return 'unavailable';
    // Node's connect to a host with several addresses fails with an AggregateError.
    if (Array.isArray(errors) && errors.some((inner) => databaseFault(inner) === 'unavailable')) return 'unavailable';
  }
  return undefined;
}

/**
 * An error as a log line may hold it: the fault for a database that cannot serve; the SQLSTATE
 * (never the message, which holds the query's parameters: people's data) for a database error;
 * the message of anything else. No stack: these are expected failures of background work.
 */
export function describeError(err: unknown): Record<string, string> {
  const fault = databaseFault(err);
  if (fault) return { fault };
  const code = sqlState(err);
  const name = err instanceof Error ? err.name : typeof err;
  if (code) return { error: name, dbCode: code };
  return { error: name, message: err instanceof Error ? err.message : String(err) };
}
