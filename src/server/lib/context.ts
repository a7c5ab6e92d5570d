import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';

/** What every request handler may use; tests build their own. */
export type AppDeps = {
  config: Config;
  logger: Logger;
  /** Undefined until the database has opened and migrated; /api/health says 503 meanwhile. */
  database: () => Database | undefined;
  /** Folder of the built client (index.html, assets/); undefined when not built. */
  clientDir: string | undefined;
};

export type AppEnv = {
  Variables: {
    requestId: string;
    deps: AppDeps;
    clientIp: string;
  };
};
