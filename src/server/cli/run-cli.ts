import { ConfigError, parseConfig, type Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { DataDirError } from '../db/embedded/data-dir-errors.ts';
import { openConfiguredDatabase } from '../db/open.ts';

/**
 * Runs a command-line tool against the configured database. Problems the operator can
 * fix (bad configuration, the server holding DATA_DIR) end in one line, not a stack trace.
 */
export async function runCli(name: string, task: (database: Database, config: Config) => Promise<void>) {
  let database: Database | undefined;
  try {
    const config = parseConfig(process.env);
    database = await openConfiguredDatabase(config, name);
    await task(database, config);
  } catch (err) {
    const known = err instanceof ConfigError || err instanceof DataDirError;
    process.stderr.write(`${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    if (!known && err instanceof Error && process.env.DEBUG) process.stderr.write(`${err.stack}\n`);
    process.exitCode = 1;
  } finally {
    await database?.close();
  }
}
