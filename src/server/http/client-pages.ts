import { serveStatic } from '@hono/node-server/serve-static';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { defaultWebsiteContent } from '#shared/website-content';
import { preferredEncoding, type Compressed } from './content-encoding.ts';
import type { AppDeps } from '../deps.ts';
import type { AppEnv, AppParts } from './context.ts';
import { publicOrigin } from './public-origin.ts';
import { ADMIN_APP_CSP } from './security-headers.ts';
import { laterOf, robotsTxt, sitemapXml } from './sitemap.ts';
import { isAppPath, loadStaticSite, readBuiltFile } from './static-site.ts';
import { WebsitePages } from './website-pages.ts';

/**
 * Serves the built client after the API: the assets (precompressed, immutable), the sitemap
 * and robots.txt, every prerendered page with the site's words filled in, and the 404 page.
 */
export function mountClient(app: OpenAPIHono<AppEnv>, deps: AppDeps & AppParts) {
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
    return c.body(sitemapXml(publicOrigin(c), site.indexable, laterOf(site.builtAt, websitePages.savedAt())), 200, {
      'Content-Type': 'application/xml; charset=UTF-8',
    });
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
