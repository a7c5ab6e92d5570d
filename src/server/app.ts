import { OpenAPIHono } from '@hono/zod-openapi';
import { LEAD_IMPORT_PATH } from '#shared/lead-import-fields';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { bodyLimit } from './http/body-limit.ts';
import { mountClient } from './http/client-pages.ts';
import type { AppDeps } from './deps.ts';
import type { AppEnv, AppParts } from './http/context.ts';
import { DeploymentWarnings } from './http/deployment-warnings.ts';
import { errorHandler } from './http/error-handler.ts';
import { AppError, errorBody } from './http/errors.ts';
import { hasMetricsToken, Metrics } from './http/metrics.ts';
import { isMisdirected, requestTarget } from './http/public-origin.ts';
import { checkRequestSource } from './http/request-source.ts';
import { bearerKeyOf } from './auth/bearer.ts';
import { withDatabase } from './http/router.ts';
import { defaultHeader, securityHeaders } from './http/security-headers.ts';
import { clientAddress } from './lib/client-address.ts';
import { accountRoutes } from './routes/account-routes.ts';
import { analyticsRoutes } from './routes/analytics-routes.ts';
import { appointmentRoutes } from './routes/appointments-routes.ts';
import { availabilityRoutes } from './routes/availability-routes.ts';
import { calendarRoutes } from './routes/calendars-routes.ts';
import { websiteBookingRoutes } from './routes/website-bookings-routes.ts';
import { authRoutes } from './routes/auth-routes.ts';
import { bookingRoutes } from './routes/bookings-routes.ts';
import { bookingSettingsRoutes } from './routes/booking-settings-routes.ts';
import { websiteRoutes } from './routes/website-routes.ts';
import { calendarFeedRoutes } from './routes/calendar-feed-routes.ts';
import { emailRoutes } from './routes/email-routes.ts';
import { healthRoutes } from './routes/health-routes.ts';
import { leadImportRoutes } from './routes/lead-import-routes.ts';
import { leadRoutes } from './routes/leads-routes.ts';
import { leadPrivacyRoutes } from './routes/lead-privacy-routes.ts';
import { leadEmailRoutes } from './routes/lead-emails-routes.ts';
import { emailTemplateRoutes } from './routes/email-templates-routes.ts';
import { pipelineRoutes } from './routes/pipeline-routes.ts';
import { pipelineBoardRoutes } from './routes/pipeline-board-routes.ts';
import { leadCallRoutes } from './routes/lead-calls-routes.ts';
import { leadTaskRoutes } from './routes/lead-tasks-routes.ts';
import { replyRoutes } from './routes/replies-routes.ts';
import { inboxRoutes } from './routes/inbox-routes.ts';
import { leadNoteRoutes } from './routes/lead-notes-routes.ts';
import { leadTimelineRoutes } from './routes/lead-timeline-routes.ts';
import { adminRoutes } from './routes/admins-routes.ts';
import { notificationRoutes } from './routes/notifications-routes.ts';
import { overviewRoutes } from './routes/overview-routes.ts';
import { publicEventRoutes } from './routes/public-events-routes.ts';
import { publicLeadRoutes } from './routes/public-leads-routes.ts';
import { teamRoutes } from './routes/team-routes.ts';
import { passwordResetRoutes } from './routes/password-reset-routes.ts';
import { twoFactorRoutes } from './routes/two-factor-routes.ts';
import { auditRoutes } from './routes/audit-routes.ts';
import { apiKeyRoutes } from './routes/api-keys-routes.ts';
import { webhookRoutes } from './routes/webhooks-routes.ts';
import { deploymentRoutes } from './routes/deployment-routes.ts';

const BODY_LIMIT_BYTES = 64 * 1024;

/** Composes the API and the built client into one app. */
export function createApp(given: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  // Handed to every request with the app's own parts (http/context.ts), which routes reach too.
  const deps: AppDeps & AppParts = given;
  let warnedBadForwardedFor = false;
  const deploymentWarnings = (deps.deploymentWarnings ??= new DeploymentWarnings(deps.logger));
  deploymentWarnings.settingsWarnings({ readsReplies: deps.config.mail.imap !== undefined, authservId: deps.config.mail.imapAuthservId });
  const metrics = deps.config.metricsToken ? new Metrics(deps) : undefined;

  app.use(async (c, next) => {
    const started = performance.now();
    deps.requests.hit();
    c.set('deps', deps);
    c.set('requestId', crypto.randomUUID());
    const client = clientAddress(socketPeer(c), c.req.header('x-forwarded-for'), deps.config.trustProxy);
    c.set('clientIp', client.ip);
    c.set('viaTrustedProxy', client.viaTrustedProxy);
    deploymentWarnings.note({
      viaTrustedProxy: client.viaTrustedProxy,
      forwardedFor: c.req.header('x-forwarded-for'),
      target: () => requestTarget(c),
    });
    if (client.badForwardedFor !== undefined && !warnedBadForwardedFor) {
      // Once per process: the proxy's configuration is wrong, not each request.
      warnedBadForwardedFor = true;
      deps.logger.warn(
        { forwardedFor: client.badForwardedFor, ip: client.ip },
        'X-Forwarded-For from a trusted proxy is not an IP address: using the socket address (said once)',
      );
    }
    await next();
    metrics?.observe(c.req.method, c.req.routePath, c.res.status, (performance.now() - started) / 1000);
    // The request log's line, built only when it is written (LOG_LEVEL info or lower).
    if (!deps.logger.isLevelEnabled('info')) return;
    deps.logger.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ip: c.get('clientIp'),
      },
      'request',
    );
  });

  // A handler may set a stricter or page-specific policy (the admin app shell does).
  app.use(securityHeaders);

  app.use(async (c, next) => {
    // The health check answers on any Host, so a load balancer or a container's probe may
    // call http://127.0.0.1:PORT/api/health; it reveals nothing but "ok".
    // So may a metrics scraper (GET /metrics, with its token).
    const isProbe =
      (c.req.path === '/api/health' || (c.req.path === '/metrics' && metrics !== undefined)) &&
      (c.req.method === 'GET' || c.req.method === 'HEAD');
    if (!isProbe && isMisdirected(c))
      throw new AppError('misdirected_request', 'This server does not answer for that host name. Use the address of the site.');
    await next();
  });

  const apiBodyLimit = bodyLimit(BODY_LIMIT_BYTES, () => {
    throw new AppError('payload_too_large', `Request body must be at most ${BODY_LIMIT_BYTES / 1024} KB.`);
  });
  // The lead import sets its own, larger limit once the session is checked (routes/lead-import-routes.ts).
  app.use('/api/*', (c, next) => (c.req.method === 'POST' && c.req.path === LEAD_IMPORT_PATH ? next() : apiBodyLimit(c, next)));
  app.use('/api/*', async (c, next) => {
    defaultHeader(c, 'Cache-Control', 'no-store');
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      // A request with an API key is no browser's (auth/bearer.ts): no cookie counts on it.
      if (bearerKeyOf(c) === undefined) checkRequestSource(c);
      const type = c.req.header('content-type') ?? '';
      if (c.req.header('content-length') !== '0' && !type.toLowerCase().startsWith('application/json') && type !== '') {
        throw new AppError('unsupported_media_type', 'Send the request body as application/json.');
      }
    }
    await next();
  });

  // Prometheus metrics: only when METRICS_TOKEN is set (otherwise the path is unknown, 404), and only with it.
  app.get('/metrics', async (c, next) => {
    if (!metrics) return next();
    if (!hasMetricsToken(c.req.header('authorization'), deps.config.metricsToken!)) {
      c.header('WWW-Authenticate', 'Bearer');
      return c.text('Send METRICS_TOKEN as a bearer token.\n', 401);
    }
    c.header('Cache-Control', 'no-store');
    return c.body(await metrics.registry.metrics(), 200, { 'Content-Type': metrics.registry.contentType });
  });

  // Every API request but the health check needs the database: 503 while it is still opening.
  app.use('/api/*', (c, next) => (c.req.path === '/api/health' ? next() : withDatabase(c, next)));

  app.route('/', healthRoutes);
  app.route('/', publicLeadRoutes);
  app.route('/', publicEventRoutes);
  app.route('/', bookingRoutes);
  app.route('/', bookingSettingsRoutes);
  app.route('/', authRoutes);
  app.route('/', notificationRoutes);
  app.route('/', leadImportRoutes);
  app.route('/', leadRoutes);
  app.route('/', leadPrivacyRoutes);
  app.route('/', leadTimelineRoutes);
  app.route('/', leadNoteRoutes);
  app.route('/', leadCallRoutes);
  app.route('/', leadTaskRoutes);
  app.route('/', leadEmailRoutes);
  app.route('/', emailTemplateRoutes);
  app.route('/', webhookRoutes);
  app.route('/', pipelineRoutes);
  app.route('/', pipelineBoardRoutes);
  app.route('/', replyRoutes);
  app.route('/', inboxRoutes);
  app.route('/', adminRoutes);
  app.route('/', availabilityRoutes);
  app.route('/', calendarRoutes);
  app.route('/', overviewRoutes);
  // Before appointmentRoutes: /api/appointments/website-networks is not an appointment's id.
  app.route('/', websiteBookingRoutes);
  app.route('/', appointmentRoutes);
  app.route('/', calendarFeedRoutes);
  app.route('/', analyticsRoutes);
  app.route('/', emailRoutes);
  app.route('/', accountRoutes);
  app.route('/', teamRoutes);
  app.route('/', passwordResetRoutes);
  app.route('/', twoFactorRoutes);
  app.route('/', auditRoutes);
  app.route('/', apiKeyRoutes);
  app.route('/', deploymentRoutes);
  app.route('/', websiteRoutes);

  app.doc('/api/openapi.json', {
    openapi: '3.0.3',
    info: { title: 'Due diligence CRM API', version: '1.0.0' },
    // Every operation needs the session cookie unless it says `security: []`.
    security: [{ sessionCookie: [] }],
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
  });
  // API keys (Settings → Integrations); each operation a key may call lists its scope (auth/api-key-scopes.ts).
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerApiKey', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key made in Settings → Integrations (owners), acting as the person who made it, with the scope the operation ' +
      'lists. A key without that scope: 403. Limited per key per minute (API_KEY_RATE_LIMIT, 600): then 429 with Retry-After. ' +
      'See docs/api.md.',
  });

  app.all('/api/*', (c) => c.json(errorBody(c, 'not_found', 'No such API endpoint.'), 404));

  mountClient(app, deps);

  app.onError(errorHandler(deps.logger));

  return app;
}

/** The socket's peer address; undefined without a socket (app.request() in tests). */
function socketPeer(c: Context<AppEnv>): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
