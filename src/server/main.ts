import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { EventRecorder } from './analytics/event-recorder.ts';
import { PublicAvailability } from './booking/public-availability.ts';
import { createApp } from './app.ts';
import { ConfigError, ownOrigin, parseConfig } from './config.ts';
import { backupSocketPath, serveBackups } from './db/embedded/backup-control.ts';
import type { Database } from './db/client.ts';
import { DataDirError } from './db/embedded/data-dir-errors.ts';
import { privateUmask } from './db/embedded/data-dir-modes.ts';
import { openConfiguredDatabase } from './db/open.ts';
import { setRowChecks } from './db/sql.ts';
import { queueMailOf, releaseAllEmailClaims } from './db/queries/emails-queries.ts';
import { sealedSecretsProblem } from './db/sealed-secrets.ts';
import { loadCredentialsVault, type CredentialsVault } from './lib/credentials.ts';
import { WebhookSender } from './webhooks/sender.ts';
import { describeImap, describeSmtp } from './lib/mail-settings.ts';
import { RequestRate } from './lib/request-rate.ts';
import { createOutbox } from './mail/mail-context.ts';
import { createReader } from './conversations/reply-reader.ts';
import { ensureAdmin } from './auth/accounts.ts';
import { recordAudit, systemActor } from './audit/audit-log.ts';
import { adminCommandSchema, runAdminCommand } from './auth/admin-commands.ts';
import { FirstRunLink, setupPath } from './lib/first-run-link.ts';
import { hasAnyUser } from './db/queries/team-queries.ts';
import { BackgroundWork } from './jobs/registry.ts';
import { appRoot } from './app-root.ts';
import { findClientDir } from './http/static-site.ts';
import { CONNECTION_TIMEOUTS, limitConnectionsPerClient } from './http/connection-limits.ts';
import { chooseLogFormat, createLogger } from './logger.ts';
import { NotificationHub } from './realtime/notification-hub.ts';

/** Prints one clear line and exits: no stack trace for a problem the operator can fix. */
function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main() {
  // Before anything is created: the database's files (and its WAL) are the owner's only.
  privateUmask();
  let config;
  try {
    config = parseConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const logger = createLogger(config.logLevel, chooseLogFormat(config.logFormat, process.stdout.isTTY === true));
  setRowChecks(config.rowChecks);
  let database: Database | undefined;
  const hub = new NotificationHub();
  const events = new EventRecorder(() => database, config.analyticsRateLimit);
  const availability = new PublicAvailability(() => database, config.businessTimeZone, config.availabilityRateLimit);
  const requests = new RequestRate();
  // Loaded once the data directory is ours (below): the key file lives there.
  let vault: CredentialsVault = { available: false, reason: 'The server is starting.' };
  const webhooks = new WebhookSender({ database: () => database, config, vault: () => vault, logger });
  // Everything that runs in the background (jobs/registry.ts), started once the database is ready.
  const background = new BackgroundWork({
    config,
    logger,
    database: () => database,
    vault: () => vault,
    busy: () => requests.busy(),
    outbox: createOutbox(config, () => database, logger),
    webhooks,
    reader: createReader(config, () => database, logger),
  });
  const firstRun = new FirstRunLink();
  const app = createApp({
    config,
    logger,
    database: () => database,
    vault: () => vault,
    clientDir: findClientDir(appRoot()),
    hub,
    events,
    availability,
    outbox: background.outbox,
    webhooks,
    requests,
    firstRun,
  });

  // Take the data directory before listening, so a second server fails before it binds.
  const opening = openConfiguredDatabase(config, 'server');
  opening.catch(() => {}); // handled below; avoid an unhandled rejection while we bind

  let listening!: () => void;
  const bound = new Promise<void>((resolve) => (listening = resolve));
  const server = serve(
    { fetch: app.fetch, port: config.port, hostname: config.host, serverOptions: { ...CONNECTION_TIMEOUTS } },
    (info) => {
      // PORT=0 takes any free port: links and the ready line use the one we got.
      if (!config.fixedOrigin) config.publicUrl = ownOrigin(config.host, info.port);
      logger.info({ port: info.port, host: config.host }, `listening on ${ownOrigin(config.host, info.port)}`);
      // A parent that spawned us with an IPC channel (the tests' startServer) learns the port
      // whatever LOG_LEVEL and LOG_FORMAT; without a channel process.send is undefined.
      process.send?.({ event: 'listening', port: info.port }, () => {});
      listening();
    },
  ) as Server;
  limitConnectionsPerClient(server, config.trustProxy, logger);
  server.on('error', (err: NodeJS.ErrnoException) => {
    fail(err.code === 'EADDRINUSE' ? `Port ${config.port} is already in use: set PORT to a free port.` : err.message);
  });

  let opened: Database;
  try {
    opened = await opening;
  } catch (err) {
    if (err instanceof DataDirError) fail(err.message);
    const reason = err instanceof Error ? err.message : String(err);
    fail(`Could not open the database (${config.databaseUrl ? 'DATABASE_URL' : `DATA_DIR ${config.dataDir}`}): ${reason}`);
  }
  // Connected calendars whose passwords this process cannot open (a move to PostgreSQL without
  // CREDENTIALS_KEY, a key file left behind): said now, rather than as every sync failing.
  vault = loadCredentialsVault(config);
  const credentialsProblem = await sealedSecretsProblem(opened.db, vault, config);
  if (credentialsProblem) fail(credentialsProblem);
  // With PostgreSQL there is no key file: without CREDENTIALS_KEY nobody can connect a CalDAV
  // account or an iCal link. Said at start-up, where the person setting the server up looks.
  if (!vault.available)
    logger.warn({ event: 'credentials_key_missing' }, `${vault.reason} Until then, the account page cannot connect calendars.`);
  await bound; // the links below carry the port
  if (config.admin) {
    const { created } = await ensureAdmin(opened.db, config.admin.email, config.admin.password, 'owner', config.admin.name);
    logger.info({ email: config.admin.email }, created ? 'created the admin from ADMIN_EMAIL' : 'admin from ADMIN_EMAIL exists');
  }
  if (!(await hasAnyUser(opened.db))) {
    // Said at warn, so it shows whatever LOG_LEVEL: without it nobody can sign in.
    const link = `${config.publicUrl}${setupPath(firstRun.issue())}`;
    logger.warn(
      { event: 'first_run', setupUrl: link },
      `No admin yet: open ${link} to create the first owner (the link works once, until the server restarts).`,
    );
  }
  const stopListening = await hub.connect(opened, logger);
  // Ready only now: the admin exists, so no lead is stored without its notification.
  database = opened;
  logger.info({ database: database.kind }, 'database ready');
  logger.info(
    { event: 'ready', url: config.publicUrl },
    `ready: open ${config.publicUrl}/ (the site) or ${config.publicUrl}/login (the dashboard)`,
  );
  // One process per embedded database: a claim left on a message is a killed process's.
  if (database.kind === 'pglite') await releaseAllEmailClaims(database.db);
  // Email and webhooks out, replies in, the calendars and the maintenance jobs: every process runs them all.
  background.start();
  logger.info(
    { email: config.mail.smtp ? describeSmtp(config.mail.smtp) : 'off', from: config.mail.from.address },
    config.mail.smtp
      ? `email: sending through ${describeSmtp(config.mail.smtp)}`
      : 'email is off (SMTP_URL is not set): messages are recorded, not sent',
  );
  if (config.mail.imap) logger.info({ replies: describeImap(config.mail.imap) }, `replies: reading ${describeImap(config.mail.imap)}`);
  // `npm run backup` asks this process for a consistent copy of the embedded database.
  const takeSnapshot = database.snapshot;
  const snapshot = takeSnapshot
    ? async () => {
        const bytes = await takeSnapshot();
        const db = database?.db;
        if (db)
          await recordAudit(db, systemActor('npm run backup'), {
            action: 'backup',
            targetType: 'backup',
            details: { bytes: bytes.length },
          });
        return bytes;
      }
    : undefined;
  const backups = snapshot
    ? serveBackups(backupSocketPath(config.dataDir), snapshot, logger, async (request) => {
        const opened = database;
        if (!opened) throw new Error('the server is stopping');
        const result = await runAdminCommand(opened.db, adminCommandSchema.parse(request), queueMailOf(config.mail));
        for (const key of result.endedSessions) hub.endSession(key);
        logger.info({ event: 'admin_command', command: (request as { command?: string }).command }, 'ran an npm run admin command');
        return result.output;
      }).catch((err: unknown) => {
        logger.warn({ err }, 'online backups are off: stop the server to run npm run backup');
        return undefined;
      })
    : undefined;

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    hub.closeAllStreams();
    const stoppingWork = background.stop();
    const force = setTimeout(() => {
      logger.warn('requests still open after 10 s: closing them');
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    server.close(() => {
      const db = database;
      database = undefined;
      void stopListening()
        .then(() => stoppingWork)
        .then(() => backups)
        .then((stopBackups) => stopBackups?.())
        .then(() => db?.close())
        .then(() => {
          logger.info('stopped cleanly');
          process.exit(0);
        })
        .catch((err: unknown) => {
          logger.error({ err }, 'error while closing the database');
          process.exit(1);
        });
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => fail(`Start-up failed: ${err instanceof Error ? err.message : String(err)}`));
