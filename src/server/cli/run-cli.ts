import { ConfigError, parseConfig, type Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { InvalidBackupError } from '../db/embedded/backup-archive.ts';
import { DataDirError } from '../db/embedded/data-dir-errors.ts';
import { privateUmask } from '../db/embedded/data-dir-modes.ts';
import { MoveError } from '../db/move.ts';
import { openConfiguredDatabase } from '../db/open.ts';
import { setRowChecks } from '../db/sql.ts';

/**
 * Runs a command-line tool: parses the configuration, runs `main` and sets the exit code it
 * returns (0 when it returns nothing). A failure ends in one line on stderr,
 * `<name>: <what went wrong> <afterFailure>`, and exit code 1; DEBUG=1 adds the stack of an
 * unexpected error (not one the operator can fix: bad configuration, DATA_DIR, a bad backup).
 */
export async function runCommand(name: string, main: (config: Config) => Promise<number | void>, afterFailure = ''): Promise<void> {
  let debug = false;
  // Whatever a command creates (DATA_DIR's files, a backup, a restore's staging copy) is the owner's only.
  privateUmask();
  try {
    const config = parseConfig(process.env);
    debug = config.debug;
    setRowChecks(config.rowChecks);
    process.exitCode = (await main(config)) ?? 0;
  } catch (err) {
    const known =
      err instanceof ConfigError || err instanceof DataDirError || err instanceof InvalidBackupError || err instanceof MoveError;
    process.stderr.write(`${[`${name}: ${err instanceof Error ? err.message : String(err)}`, afterFailure].filter(Boolean).join(' ')}\n`);
    if (!known && debug && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    process.exitCode = 1;
  }
}

/** Runs a command-line tool against the configured database, opened for it and closed after. */
export function runCli(name: string, task: (database: Database, config: Config) => Promise<void>): Promise<void> {
  return runCommand(name, async (config) => {
    const database = await openConfiguredDatabase(config, name);
    try {
      await task(database, config);
    } finally {
      await database.close();
    }
  });
}
