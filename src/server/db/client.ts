import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { appRoot } from '../app-root.ts';
import { applyChangedDefinitions, type DefinitionsConnection } from './definitions.ts';
import { keepPgliteFilesPrivate } from './embedded/data-dir-modes.ts';
import { attachNamedStatements } from './embedded/pglite-prepared.ts';
import { snapshotPglite } from './embedded/pglite-snapshot.ts';
import { StatementErrorTolerantPool } from './pool.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** Either driver: every query function takes this, so tests hand in their own. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Applies the committed migrations, in a transaction, then the functions and triggers of
   * src/server/db/functions/ whose text changed (db/definitions.ts), in another.
   */
  migrate: () => Promise<void>;
  /**
   * LISTENs on a channel (PostgreSQL NOTIFY); resolves to an unlisten function. `onReconnect`
   * runs when a lost listening connection is back (notifications meanwhile were missed).
   */
  listen: (channel: string, onPayload: (payload: string) => void, onReconnect?: () => void) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
  /** Embedded database only: a consistent copy of its data directory (a gzipped tar), taken while it serves. */
  snapshot?: () => Promise<Uint8Array>;
  /** PostgreSQL only: the connection pool's connections, idle ones, and queries waiting for one (for /metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number };
};

export const migrationsFolder = () => path.join(appRoot(), 'drizzle');

/** Wraps an open PGlite (file-backed, in-memory or loaded from a template). */
export function fromPglite(client: PGlite): Database {
  attachNamedStatements(client);
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(db, { migrationsFolder: migrationsFolder() });
      await client.transaction((tx) => applyChangedDefinitions(pgliteConnection(tx)));
    },
    listen: (channel, onPayload) => client.listen(channel, onPayload).then((stop) => () => stop()),
    close: () => client.close(),
    snapshot: () => snapshotPglite(client),
  };
}

/** A PGlite (or one of its transactions) as db/definitions.ts uses a connection. */
export function pgliteConnection(client: Pick<PGlite, 'query' | 'exec'>): DefinitionsConnection {
  return {
    query: async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows,
    exec: async (script) => void (await client.exec(script)),
  };
}

/** A node-postgres client as db/definitions.ts uses a connection (a script runs as one simple query). */
export function pgConnection(client: pg.ClientBase): DefinitionsConnection {
  return {
    query: async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows,
    exec: async (script) => void (await client.query(script)),
  };
}

export function fromPool(pool: pg.Pool): Database {
  const db = drizzlePg(pool, { schema });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    migrate: () => migratePostgres(pool),
    listen: (channel, onPayload, onReconnect) => listenPostgres(pool, channel, onPayload, onReconnect),
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * A PGlite with the extensions our migrations use (pg_trgm, for substring search; btree_gist,
 * for one host's calls never overlapping).
 * Every PGlite in the project is made here, so none lacks them.
 */
export function createPglite(options: Omit<PGliteOptions, 'extensions'> = {}): PGlite {
  return new PGlite({ ...options, extensions: { btree_gist, pg_trgm } });
}

export async function openPglite(dataDir: string | undefined): Promise<Database> {
  // dataDir undefined = in memory. Default durability: each commit is written to the OS
  // before the query returns, so a killed process loses nothing it acknowledged.
  const client = createPglite(dataDir === undefined ? {} : { dataDir });
  await client.waitReady;
  if (dataDir !== undefined) keepPgliteFilesPrivate(client);
  return fromPglite(client);
}

export function openPostgres(url: string, max = 20): Database {
  // A bounded wait for a connection, so a request fails (503) instead of hanging while the
  // server is unreachable.
  const pool = new StatementErrorTolerantPool({
    connectionString: url,
    max,
    application_name: 'due-diligence-crm',
    connectionTimeoutMillis: 5000,
  });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor may a checked-out one: its query rejects (answered 503), but node-postgres also
  // emits 'error' on the client, which with no listener would end the process.
  pool.on('connect', (client) => client.on('error', () => {}));
  return fromPool(pool);
}

const LISTEN_RETRY_FIRST_MS = 250;
const LISTEN_RETRY_MAX_MS = 5000;

/**
 * A dedicated connection that LISTENs. If it drops (a server restart), it reconnects with
 * backoff (250 ms doubling to 5 s) until it is back; notifications sent while it was away
 * are not replayed, so `onReconnect` tells the caller to have its clients refetch.
 */
async function listenPostgres(pool: pg.Pool, channel: string, onPayload: (payload: string) => void, onReconnect?: () => void) {
  const options = pool.options;
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = LISTEN_RETRY_FIRST_MS;
  let retrying = false;
  const retry = () => {
    if (stopped || retrying) return;
    retrying = true;
    const wait = retryMs;
    retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
    setTimeout(() => {
      retrying = false;
      connect().then(() => {
        retryMs = LISTEN_RETRY_FIRST_MS;
        onReconnect?.();
      }, retry);
    }, wait).unref();
  };
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ ...options });
    const lost = () => {
      if (client !== c) return;
      client = undefined;
      c.end().catch(() => {});
      retry();
    };
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) onPayload(msg.payload);
    });
    c.on('error', lost);
    c.on('end', lost);
    try {
      await c.connect();
      await c.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      c.end().catch(() => {});
      throw err;
    }
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
  };
  await connect();
  return async () => {
    stopped = true;
    const c = client;
    client = undefined;
    await c?.end().catch(() => {});
  };
}

// Any 64-bit number works; this one is ours, so two app processes never migrate at once.
const MIGRATION_LOCK_ID = 4_274_105_201;

async function migratePostgres(pool: pg.Pool): Promise<void> {
  // Advisory locks belong to a connection: take, use and release one client.
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder: migrationsFolder() });
      await client.query('begin');
      try {
        await applyChangedDefinitions(pgConnection(client));
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw err;
      }
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}
