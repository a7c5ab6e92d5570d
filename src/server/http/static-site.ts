import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { websiteTokens, type WebsiteContent } from '#shared/website-content';
import { compressText, type Compressed } from './content-encoding.ts';

/**
 * The built client, held in memory: prerendered pages (with the brand and contact details
 * from the environment and the firm's words from Settings → Website filled in, at start-up
 * and at each save), the SPA shell for the admin app, and the
 * 404 page, each also brotli- and gzip-compressed once at start-up. Assets are served from
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
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** What the pages are filled with: the environment's site values, the firm's saved words, the year. */
export type SiteValues = { site: Config['site']; website: WebsiteContent; year: string };

/**
 * Fills every placeholder token of a prerendered page (`%%NAME%%`) with its value, HTML-escaped,
 * in one pass: a value that itself looks like a token stays as typed. The JSON block the
 * browser hydrates from gets the same values.
 */
export function fillSiteTokens(html: string, { site, website, year }: SiteValues): string {
  const phoneTel = site.phone.replace(/[^\d+]/g, '');
  const json = JSON.stringify({ name: site.name, email: site.email, phone: site.phone, phoneTel, year, website }).replace(/</g, '\\u003c');
  const values = new Map<string, string>([
    ['SITE_NAME', site.name],
    ['SITE_EMAIL', site.email],
    ['SITE_PHONE_TEL', phoneTel],
    ['SITE_PHONE', site.phone],
    ['YEAR', year],
    ...websiteTokens(website),
  ]);
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
  const templates = htmlFiles(clientDir).map((file) => ({ file, html: readFileSync(path.join(clientDir, file), 'utf8') }));
  let pages = new Map<string, Compressed>();
  let notFound = compressText('<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>');
  let appShell: Compressed | undefined;
  let filledWith = values;
  const fill = (with_: SiteValues) => {
    const next = new Map<string, Compressed>();
    for (const { file, html: template } of templates) {
      const html = compressText(fillSiteTokens(template, with_));
      if (file === '404.html') notFound = html;
      else if (file === 'app.html') appShell = html;
      else if (file === 'index.html') next.set('/', html);
      else if (file.endsWith('/index.html')) next.set(`/${file.slice(0, -'/index.html'.length)}`, html);
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
  };
}

export function findClientDir(root: string): string | undefined {
  const dir = path.join(root, 'dist', 'client');
  return existsSync(path.join(dir, 'index.html')) ? dir : undefined;
}
