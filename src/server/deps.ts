import type { Logger } from 'pino';
import type { EventRecorder } from './analytics/event-recorder.ts';
import type { PublicAvailability } from './booking/public-availability.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { CredentialsVault } from './lib/credentials.ts';
import type { FirstRunLink } from './lib/first-run-link.ts';
import type { RequestRate } from './lib/request-rate.ts';
import type { NotificationHub } from './realtime/notification-hub.ts';
import type { WebhookSender } from './webhooks/sender.ts';

/**
 * What every request handler may use: the parts of the domain a process makes once (main.ts;
 * tests build their own, src/server/test/test-app.ts) and hands the HTTP layer, which names them
 * only through this type. createApp adds its own parts (http/context.ts, AppParts).
 */
export type AppDeps = {
  config: Config;
  logger: Logger;
  /** Undefined until the database has opened and migrated; /api/health says 503 meanwhile. */
  database: () => Database | undefined;
  /**
   * The credentials vault, loaded once the data directory is this process's (main.ts: it may
   * create the key file there). Every route that opens a secret runs with the database, after it.
   */
  vault: () => CredentialsVault;
  /** Folder of the built client (index.html, assets/); undefined when not built. */
  clientDir: string | undefined;
  /** Live notifications for this process's open streams. */
  hub: NotificationHub;
  /** Public analytics events: bot filter, per-IP limit, group commit. */
  events: EventRecorder;
  /** The public open times: cached per availability version, limited per client address. */
  availability: PublicAvailability;
  /** The email outbox's worker: `nudge()` after a change that queued some mail. */
  outbox: { nudge(): void };
  /** Sends webhook deliveries: its worker's, and the owners' Send test at once (webhooks/send-test.ts). */
  webhooks: WebhookSender;
  /** Counts every request, so background work can step aside while the server is busy. */
  requests: RequestRate;
  /** The set-up link printed at start-up while nobody has an account (lib/first-run-link.ts). */
  firstRun?: FirstRunLink;
};
