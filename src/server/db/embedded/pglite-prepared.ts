import { type PGlite, type Results, type Transaction, parse, protocol, types } from '@electric-sql/pglite';
import { DrizzleQueryError } from 'drizzle-orm/errors';

/**
 * Named prepared statements on PGlite, which drizzle's PGlite driver does not have: it sends
 * every statement unnamed, so PGlite parses, analyses and plans it again at each call, one
 * message per call into its WebAssembly (Parse, Describe, Bind, Describe, Execute, Sync). For
 * the public form's lead statement that was much of its time (docs/performance.md, "Measurements
 * behind the code").
 *
 * Here a statement is parsed once per PGlite under its name (PostgreSQL then keeps its plan,
 * as it does for a named statement on a server), and each call sends Bind, Describe, Execute
 * and Sync in one message. The rows are parsed as drizzle parses a raw query's, so a caller
 * gets the same rows either way (pglite-prepared.api.test.ts compares them).
 *
 * It rides on the client drizzle holds: `attachNamedStatements` hangs a runner on the PGlite
 * and on each transaction PGlite hands out (under RUN_NAMED), and db/sql.ts's prepared
 * queries use it when it is there.
 */

export const RUN_NAMED = Symbol('run a named prepared statement');

export type NamedRunner = (name: string, text: string, params: unknown[]) => Promise<Results>;

/** What drizzle's PGlite driver parses as text for a raw query (its rawQueryConfig): timestamps, dates and intervals stay strings. */
const asText = (value: string) => value;
const RAW_QUERY_PARSERS = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText, // numeric[]
  1115: asText, // timestamp[]
  1185: asText, // timestamptz[]
  1187: asText, // interval[]
  1182: asText, // date[]
};

type Statement = { text: string; paramTypes: number[] };

export function attachNamedStatements(client: PGlite): void {
  // Per PGlite: its backend holds the statements for as long as it is open.
  const statements = new Map<string, Statement>();
  // PGlite's parsers with drizzle's on top, merged once: handed a query's own parsers, PGlite
  // copies all of its own into a new object at every query (docs/performance.md, "Measurements behind the code").
  // (Made at the first statement, once PGlite has read its array types into its parsers.)
  let parsers: { of: PGlite['parsers']; merged: PGlite['parsers'] } | undefined;
  const parsersNow = () => {
    if (parsers?.of !== client.parsers) parsers = { of: client.parsers, merged: { ...client.parsers, ...RAW_QUERY_PARSERS } };
    return parsers.merged;
  };

  const run = async (name: string, text: string, params: unknown[]): Promise<Results> => {
    let statement = statements.get(name);
    if (statement !== undefined && statement.text !== text) throw new Error(`the prepared statement "${name}" changed its text`);
    try {
      if (statement === undefined) {
        const described = await client.execProtocolStream(
          Buffer.concat([
            protocol.serialize.parse({ name, text }),
            protocol.serialize.describe({ type: 'S', name }),
            protocol.serialize.sync(),
          ]),
          { syncToFs: false },
        );
        statement = { text, paramTypes: parse.parseDescribeStatementResults(described) };
        statements.set(name, statement);
      }
      const { paramTypes } = statement;
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = client.serializers[paramTypes[i]!];
        return serialize ? serialize(value) : String(value);
      });
      const messages = await client.execProtocolStream(
        Buffer.concat([
          protocol.serialize.bind({ statement: name, values }),
          protocol.serialize.describe({ type: 'P' }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
        { syncToFs: false },
      );
      return parse.parseResults(messages, parsersNow(), { rowMode: 'object' })[0]!;
    } catch (error) {
      // As drizzle reports a failed query, so callers look for the database's error in one place.
      throw new DrizzleQueryError(text, params, error as Error);
    }
  };

  // Outside a transaction it waits for any transaction under way, as PGlite's own query does,
  // and writes the result to the filesystem afterwards; inside one it waits only for the query.
  const runAlone: NamedRunner = async (name, text, params) => {
    await client._checkReady();
    return client._runExclusiveTransaction(async () => {
      const result = await client._runExclusiveQuery(() => run(name, text, params));
      await client.syncToFs();
      return result;
    });
  };
  const runInTransaction: NamedRunner = (name, text, params) => client._runExclusiveQuery(() => run(name, text, params));

  const transaction = client.transaction.bind(client);
  Object.assign(client, {
    [RUN_NAMED]: runAlone,
    transaction: <T>(callback: (tx: Transaction) => Promise<T>) =>
      transaction((tx) => callback(Object.assign(tx, { [RUN_NAMED]: runInTransaction }))),
  });
}

/** The runner drizzle's client carries, if it is a PGlite (or a transaction of one) with named statements. */
export function namedRunnerOf(client: unknown): NamedRunner | undefined {
  return (client as { [RUN_NAMED]?: NamedRunner } | undefined)?.[RUN_NAMED];
}
