import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { websiteOptionalParts, websiteTokens, type WebsiteContent } from '#shared/website-content';
import { compressText, type Compressed } from './content-encoding.ts';

/**
 * The built client, held in memory: prerendered pages (with the firm's words, brand and
 * contact from Settings → Website filled in, at start-up and at each save), the SPA shell for the admin app, and the
 * 404 page, each also brotli- and gzip-compressed once, on its first request. Assets are served from
 * disk by serveStatic, with the .br and .gz files the build wrote beside them.
 */
export type StaticSite = {
  /** HTML for a path, or undefined if no page has that path. */
  page: (pathname: string) => Compressed | undefined;
  readonly notFound: Compressed;
  /** What the pages are filled with now. */
  values: () => SiteValues;
  /** Fills every page again (a few milliseconds; the pages are swapped whole). */
  refill: (values: SiteValues) => void;
  /** The public pages search engines may list (those without a robots noindex), for the sitemap. */
  readonly indexable: readonly string[];
  /** When the pages were built (the prerendered files' newest time). */
  readonly builtAt: Date;
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** What the pages are filled with: the firm's words, brand and contact (saved, or the defaults), and the year. */
export type SiteValues = { website: WebsiteContent; year: string };

/**
 * Fills a prerendered page: first keeps or drops each optional part (`%%IF_NAME%%…%%FI_NAME%%`,
 * a figure the firm removed), then fills every placeholder token (`%%NAME%%`) with its value,
 * HTML-escaped, in one pass: a value that itself looks like a token stays as typed. The JSON
 * block the browser hydrates from gets the same values.
 */
export function fillSiteTokens(template: string, { website, year }: SiteValues): string {
  const tokens = websiteTokens(website);
  const values = new Map<string, string>([...tokens, ['YEAR', year]]);
  const json = JSON.stringify({
    name: website.site_name,
    email: website.email,
    phone: website.phone,
    phoneTel: values.get('SITE_PHONE_TEL'),
    year,
    website,
  }).replace(/</g, '\\u003c');
  const parts = websiteOptionalParts(website);
  const html = template.replace(/%%IF_([A-Z0-9_]+)%%([\s\S]*?)%%FI_\1%%/g, (_, name: string, inner: string) =>
    parts.has(name) ? inner : '',
  );
  return html.replace(/%%([A-Z0-9_]+)%%/g, (token, name: string) => {
    if (name === 'SITE_CONFIG_JSON') return json;
    const value = values.get(name);
    return value === undefined ? token : escapeHtml(value);
  });
}

function htmlFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'assets') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...htmlFiles(full, `${prefix}${name}/`));
    else if (name.endsWith('.html')) out.push(`${prefix}${name}`);
  }
  return out;
}

const APP_PAGES = new Set(['/login', '/dashboard', '/forgot-password']);
// Pages of a one-time link: first-run set-up, an invitation, a password reset.
const APP_LINK_PAGE = /^\/(dashboard\/.+|setup\/[^/]+|invite\/[^/]+|reset-password\/[^/]+)$/;

/** Paths the admin single-page app owns; they all get its shell. */
export const isAppPath = (p: string) => APP_PAGES.has(p) || APP_LINK_PAGE.test(p);

/**
 * The public pages and the admin app's shell, filled with `values`; `refill` fills them again
 * from the prerendered files kept in memory (a save in Settings → Website, a new year),
 * without a rebuild.
 */
export function loadStaticSite(clientDir: string, values: SiteValues): StaticSite {
  const files = htmlFiles(clientDir);
  const templates = files.map((file) => ({ file, html: readFileSync(path.join(clientDir, file), 'utf8') }));
  const builtAt = new Date(Math.max(...files.map((file) => statSync(path.join(clientDir, file)).mtimeMs)));
  const pathOf = (file: string) =>
    file === 'index.html' ? '/' : file.endsWith('/index.html') ? `/${file.slice(0, -'/index.html'.length)}` : undefined;
  const indexable = templates
    .filter(({ html }) => !/<meta name="robots" content="noindex"/.test(html))
    .map(({ file }) => pathOf(file))
    .filter((p): p is string => p !== undefined);
  let pages = new Map<string, Compressed>();
  let notFound = compressText('<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>');
  let appShell: Compressed | undefined;
  let filledWith = values;
  const fill = (with_: SiteValues) => {
    const next = new Map<string, Compressed>();
    for (const { file, html: template } of templates) {
      const html = compressText(fillSiteTokens(template, with_));
      const pagePath = pathOf(file);
      if (file === '404.html') notFound = html;
      else if (file === 'app.html') appShell = html;
      else if (pagePath) next.set(pagePath, html);
    }
    pages = next;
    filledWith = with_;
  };
  fill(values);
  return {
    page: (pathname) => {
      const p = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
      if (isAppPath(p)) return appShell;
      // A booked call's private page, and the page of a held booking's emailed confirmation link
      // (/booking/<token>/confirm/<code>): one page for every token, which the browser reads.
      if (/^\/booking\/[A-Za-z0-9_-]{1,100}(\/confirm\/[A-Za-z0-9_-]{1,100})?$/.test(p)) return pages.get('/booking');
      return pages.get(p);
    },
    get notFound() {
      return notFound;
    },
    values: () => filledWith,
    refill: fill,
    indexable,
    builtAt,
  };
}

/** A file of the built client as text, or undefined when the build has none. */
export function readBuiltFile(clientDir: string, file: string): string | undefined {
  const full = path.join(clientDir, file);
  return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
}

export function findClientDir(root: string): string | undefined {
  const dir = path.join(root, 'dist', 'client');
  return existsSync(path.join(dir, 'index.html')) ? dir : undefined;
}
