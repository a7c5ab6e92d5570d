import { OpenAPIHono } from '@hono/zod-openapi';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context } from 'hono';
import { except } from 'hono/combine';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { ERROR_CODES, type ErrorCode } from '#shared/schemas/error';
import { DATABASE_FAULT_MESSAGES, databaseFault, sqlState } from './db/database-faults.ts';
import { bodyLimit } from './http/body-limit.ts';
import type { AppDeps, AppEnv } from './http/context.ts';
import { AppError, ClientAbortedError, errorBody, errorResponse } from './http/errors.ts';
import { isMisdirected, publicOrigin } from './http/public-origin.ts';
import { preferredEncoding, type Compressed } from './http/content-encoding.ts';
import { withDatabase } from './http/router.ts';
import { clientAddress } from './lib/client-address.ts';
import { isAppPath, loadStaticSite, readBuiltFile } from './http/static-site.ts';
import { laterOf, robotsTxt, sitemapXml } from './http/sitemap.ts';
import { WebsitePages } from './http/website-pages.ts';
import { defaultWebsiteContent } from '#shared/website-content';
import { DeploymentWarnings } from './http/deployment-warnings.ts';
import { hasMetricsToken, Metrics } from './http/metrics.ts';
import { accountRoutes } from './routes/account.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { appointmentRoutes } from './routes/appointments.ts';
import { websiteBookingRoutes } from './routes/website-bookings.ts';
import { authRoutes } from './routes/auth.ts';
import { bookingRoutes } from './routes/bookings.ts';
import { bookingSettingsRoutes } from './routes/booking-settings.ts';
import { websiteRoutes } from './routes/website.ts';
import { calendarFeedRoutes } from './routes/calendar-feed.ts';
import { emailRoutes } from './routes/email.ts';
import { healthRoutes } from './routes/health.ts';
import { LEAD_IMPORT_PATH, leadImportRoutes } from './routes/lead-import.ts';
import { leadRoutes } from './routes/leads.ts';
import { leadPrivacyRoutes } from './routes/lead-privacy.ts';
import { leadNoteRoutes } from './routes/lead-notes.ts';
import { leadTimelineRoutes } from './routes/lead-timeline.ts';
import { adminRoutes } from './routes/admins.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { overviewRoutes } from './routes/overview.ts';
import { publicEventRoutes } from './routes/public-events.ts';
import { publicLeadRoutes } from './routes/public-leads.ts';
import { teamRoutes } from './routes/team.ts';
import { passwordResetRoutes } from './routes/password-reset.ts';
import { twoFactorRoutes } from './routes/two-factor.ts';
import { auditRoutes } from './routes/audit.ts';
import { deploymentRoutes } from './routes/deployment.ts';

const BODY_LIMIT_BYTES = 64 * 1024;

const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/** Only our own scripts, styles, images and API; nobody may frame us. */
const CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * The admin app's dialogs lock page scroll with an injected <style> element (Radix via
 * react-remove-scroll), so its shell also allows inline styles. Scripts stay 'self' only.
 */
export const ADMIN_APP_CSP = Object.entries({ ...CSP, styleSrc: ["'self'", "'unsafe-inline'"] })
  .map(([k, v]) => `${k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)} ${v.join(' ')}`)
  .join('; ');

/** Composes the API and the built client into one app. */
export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  let warnedBadForwardedFor = false;
  const deploymentWarnings = (deps.deploymentWarnings ??= new DeploymentWarnings(deps.logger));
  const metrics = deps.config.metricsToken ? new Metrics(deps) : undefined;

  app.use(async (c, next) => {
    const started = performance.now();
    deps.requests.hit();
    c.set('deps', deps);
    c.set('requestId', crypto.randomUUID());
    const client = clientAddress(socketPeer(c), c.req.header('x-forwarded-for'), deps.config.trustProxy);
    c.set('clientIp', client.ip);
    c.set('viaTrustedProxy', client.viaTrustedProxy);
    deploymentWarnings.note(c);
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

  app.use(
    secureHeaders({
      contentSecurityPolicy: CSP,
      // A handler may set a stricter or page-specific policy (the admin app shell does).
      overwrite: false,
      referrerPolicy: 'strict-origin-when-cross-origin',
      xFrameOptions: 'DENY',
      strictTransportSecurity: false, // only meaningful behind https; set by the proxy there
      crossOriginEmbedderPolicy: false,
    }),
  );

  app.use(async (c, next) => {
    // The health check answers on any Host, so a load balancer or a container's probe may
    // call http://127.0.0.1:PORT/api/health; it reveals nothing but "ok".
    // So may a metrics scraper (GET /metrics, with its token).
    const isProbe = (c.req.path === '/api/health' || (c.req.path === '/metrics' && metrics !== undefined)) && (c.req.method === 'GET' || c.req.method === 'HEAD');
    if (!isProbe && isMisdirected(c)) throw new AppError('misdirected_request', 'This server does not answer for that host name. Use the address of the site.');
    await next();
  });

  const apiBodyLimit = bodyLimit(BODY_LIMIT_BYTES, () => {
    throw new AppError('payload_too_large', `Request body must be at most ${BODY_LIMIT_BYTES / 1024} KB.`);
  });
  // The lead import sets its own, larger limit once the session is checked (routes/lead-import.ts).
  app.use('/api/*', (c, next) => (c.req.method === 'POST' && c.req.path === LEAD_IMPORT_PATH ? next() : apiBodyLimit(c, next)));
  app.use('/api/*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      checkRequestSource(c);
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
  app.use('/api/*', except('/api/health', withDatabase));

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
  app.route('/', adminRoutes);
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

  app.all('/api/*', (c) => c.json(errorBody(c, 'not_found', 'No such API endpoint.'), 404));

  mountClient(app, deps);

  app.onError((err, c) => {
    if (err instanceof AppError) return errorResponse(c, err);
    if (err instanceof ClientAbortedError) {
      // The client hung up mid-body (or took longer than the request timeout): no one to
      // answer, nothing wrong here. Not a warning, and never "database unavailable".
      deps.logger.info({ requestId: c.get('requestId'), reason: err.reason, ip: c.get('clientIp') }, 'client closed the connection before sending the whole request');
      return c.json(errorBody(c, 'bad_request', 'The request body did not arrive in full. Please send it again.'), 400);
    }
    if (err instanceof HTTPException && err.status < 500) {
      // Hono's own 4xx (a body that is not valid JSON, a body without a Content-Type), with
      // our code for that status, so code and status always agree.
      const code = HTTP_EXCEPTION_CODES[err.status] ?? 'bad_request';
      const message = err.status === 400 ? 'The request body is not valid JSON.' : code === 'unsupported_media_type' ? 'Send the request body as application/json.' : err.message;
      return c.json(errorBody(c, code, message), ERROR_CODES[code]);
    }
    const fault = databaseFault(err);
    if (fault) {
      // The database is down, restarting or full: the client may retry; no stack, no details.
      deps.logger.warn({ requestId: c.get('requestId'), fault, error: err.name, dbCode: sqlState(err) }, 'database unavailable');
      c.header('Retry-After', '5');
      return c.json(errorBody(c, 'service_unavailable', DATABASE_FAULT_MESSAGES[fault]), 503);
    }
    const dbCode = sqlState(err);
    if (dbCode?.startsWith('22')) {
      // A data exception (a value the database cannot store): the client's input, not our fault.
      return c.json(errorBody(c, 'bad_request', 'The request contains a value that cannot be stored.'), 400);
    }
    // Log the error without the query's parameters: they hold people's personal data.
    deps.logger.error(
      { requestId: c.get('requestId'), error: err.name, dbCode, message: dbCode ? undefined : err.message, stack: dbCode ? undefined : err.stack },
      'unhandled error',
    );
    return c.json(errorBody(c, 'internal_error', 'Something went wrong on our side.'), 500);
  });

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

/**
 * Cross-site request forgery guard for state-changing requests. A browser sends Origin on
 * every one of them (and Sec-Fetch-Site, in every current engine): it must be this
 * site's origin — scheme, host and port — which is PUBLIC_URL when set, else the origin the
 * request was sent to. A request with neither header is not from a browser: refused, except
 * for the public operations under /api/public/ (lead form, analytics events, bookings),
 * which other programs may call and which no cookie authorises anyway.
 * https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html
 */
function checkRequestSource(c: Context<AppEnv>) {
  const origin = c.req.header('origin');
  const fetchSite = c.req.header('sec-fetch-site');
  if (origin === undefined && fetchSite === undefined) {
    if (c.req.path.startsWith('/api/public/')) return;
    throw new AppError('forbidden', 'This request needs an Origin header. Send it from the pages of this site.');
  }
  if (fetchSite !== undefined && fetchSite !== 'same-origin') throw new AppError('forbidden', 'Cross-site request refused.');
  if (origin === undefined) return;
  let sent: string;
  try {
    sent = new URL(origin).origin;
  } catch {
    throw new AppError('forbidden', 'Cross-site request refused.');
  }
  if (sent !== publicOrigin(c).origin) throw new AppError('forbidden', 'Cross-site request refused.');
}

function mountClient(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  const clientDir = deps.clientDir;
  if (!clientDir) {
    app.get('*', (c) => c.text('The client is not built. Run `npm run build`, or `npm start`.', 404));
    return;
  }
  // The defaults until the first page request reads the saved words (the database may not be open yet).
  const site = loadStaticSite(clientDir, {
    website: defaultWebsiteContent(deps.config.site.name, deps.config.site),
    year: String(new Date().getFullYear()),
  });
  const websitePages = (deps.websitePages = new WebsitePages(site, deps.database, deps.config, (err) =>
    deps.logger.error({ err, event: 'website_pages_failed' }, 'could not read the website settings; the pages keep their last words'),
  ));
  app.use(
    '/assets/*',
    serveStatic({
      root: clientDir,
      // The build writes .br and .gz beside each compressible asset (scripts/compress-assets.ts).
      precompressed: true,
      onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  );
  // The sitemap and robots.txt name the site's absolute URLs; the sitemap's times follow each save.
  app.get('/sitemap.xml', async (c) => {
    await websitePages.fresh();
    c.header('Cache-Control', 'no-cache');
    return c.body(sitemapXml(publicOrigin(c), site.indexable, laterOf(site.builtAt, websitePages.savedAt())), 200, { 'Content-Type': 'application/xml; charset=UTF-8' });
  });
  const builtRobots = readBuiltFile(clientDir, 'robots.txt');
  if (builtRobots !== undefined) app.get('/robots.txt', (c) => c.text(robotsTxt(builtRobots, publicOrigin(c))));
  app.get('*', async (c, next) => {
    await websitePages.fresh();
    const page = site.page(c.req.path);
    if (page === undefined) return next();
    c.header('Cache-Control', 'no-cache');
    if (isAppPath(c.req.path)) c.header('Content-Security-Policy', ADMIN_APP_CSP);
    if (/^\/(booking|setup|invite|reset-password)\//.test(c.req.path)) {
      // A private link: kept out of caches, and out of the Referer of any link on the page.
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
    }
    return sendHtml(c, page, 200);
  });
  // HTML files are served only through their clean paths above, with the site values filled in.
  app.use('*', async (c, next) => (c.req.path.endsWith('.html') ? sendHtml(c, site.notFound, 404) : next()));
  app.use('*', serveStatic({ root: clientDir, precompressed: true }));
  app.all('*', (c) => sendHtml(c, site.notFound, 404));
}

/** A page in the encoding the browser prefers (brotli, gzip or none), compressed at start-up. */
function sendHtml(c: Context<AppEnv>, page: Compressed, status: 200 | 404) {
  c.header('Vary', 'Accept-Encoding');
  const encoding = preferredEncoding(c.req.header('accept-encoding'));
  if (!encoding) return c.html(page.text, status);
  c.header('Content-Encoding', encoding);
  c.header('Content-Type', 'text/html; charset=UTF-8');
  return c.body(new Uint8Array(page[encoding]), status);
}
