import type { Logger } from 'pino';
import type { CurrentUser } from '#shared/schemas/auth';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { FirstRunLink } from '../lib/first-run-link.ts';
import type { DeploymentWarnings } from './deployment-warnings.ts';
import type { WebsitePages } from './website-pages.ts';
import type { EventRecorder } from '../analytics/event-recorder.ts';
import type { PublicAvailability } from '../booking/public-availability.ts';
import type { RequestRate } from '../lib/request-rate.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import type { NotificationHub } from '../realtime/notification-hub.ts';

/** What every request handler may use; tests build their own. */
export type AppDeps = {
  config: Config;
  logger: Logger;
  /** Undefined until the database has opened and migrated; /api/health says 503 meanwhile. */
  database: () => Database | undefined;
  /** Folder of the built client (index.html, assets/); undefined when not built. */
  clientDir: string | undefined;
  /** Live notifications for this process's open streams. */
  hub: NotificationHub;
  /** Public analytics events: bot filter, per-IP limit, group commit. */
  events: EventRecorder;
  /** The public open times: cached per availability version, limited per client address. */
  availability: PublicAvailability;
  /** Sends queued email; `nudge()` after a change that queued some. */
  outbox: MailOutbox;
  /** Counts every request, so the outbox can step aside while the server is busy. */
  requests: RequestRate;
  /** The set-up link printed at start-up while nobody has an account (auth/first-run.ts). */
  firstRun?: FirstRunLink;
  /** Set-up mistakes seen in requests (a proxy not trusted, plain http from afar), for owners. */
  deploymentWarnings?: DeploymentWarnings;
  /** The served public pages' words (Settings → Website); undefined when the client is not built. */
  websitePages?: WebsitePages;
};

export type AppEnv = {
  Variables: {
    requestId: string;
    deps: AppDeps;
    clientIp: string;
    /** The socket's peer is a trusted proxy (TRUST_PROXY): its X-Forwarded-* headers count. */
    viaTrustedProxy: boolean;
    /** The open database (set by withDatabase on every /api route but /api/health). */
    db: Db;
    /** Set by requireUser on admin routes (the key's maker when an API key is used). */
    user: CurrentUser;
    /** Set when the request is authorised by an API key (auth/api-key-auth.ts), never with a session. */
    apiKey: { id: string; name: string } | undefined;
  };
};
