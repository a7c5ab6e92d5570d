import type { Config } from '../config.ts';
import { openPglite, openPostgres, type Database } from './client.ts';
import { dataDirError } from './embedded/data-dir-errors.ts';
import { acquireDataDirLock } from './embedded/data-dir-lock.ts';
import { tightenDataDir } from './embedded/data-dir-modes.ts';
import { refuseTestClock } from './test-clock-guard.ts';

/**
 * Opens the database the configuration names and brings its schema up to date; outside tests it
 * refuses a database whose clock a test set (db/test-clock-guard.ts).
 * For the embedded database this process first takes DATA_DIR's lock, held until close().
 */
export async function openConfiguredDatabase(config: Config, purpose: string): Promise<Database> {
  if (config.databaseUrl) {
    const database = openPostgres(config.databaseUrl);
    try {
      await database.migrate();
      await refuseTestClock(database.db, config.testClockAllowed);
    } catch (err) {
      await database.close();
      throw err;
    }
    return database;
  }
  const release = await acquireDataDirLock(config.dataDir, purpose);
  try {
    const database = await openPglite(config.dataDir);
    // What PGlite wrote while starting (a new database's files from initdb) is the owner's only too.
    tightenDataDir(config.dataDir);
    await database.migrate();
    try {
      await refuseTestClock(database.db, config.testClockAllowed);
    } catch (err) {
      await database.close();
      throw err;
    }
    return {
      ...database,
      close: async () => {
        try {
          await database.close();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    release();
    // A disk that filled up while the database was being created or migrated: one clear line.
    throw dataDirError(config.dataDir, err) ?? err;
  }
}
