import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { compressText, type Compressed } from './content-encoding.ts';

/**
 * The built client, held in memory: prerendered pages (with the brand and contact details
 * filled in from the environment at start-up), the SPA shell for the admin app, and the
 * 404 page, each also brotli- and gzip-compressed once at start-up. Assets are served from
 * disk by serveStatic, with the .br and .gz files the build wrote beside them.
 */
export type StaticSite = {
  /** HTML for a path, or undefined if no page has that path. */
  page: (pathname: string) => Compressed | undefined;
  notFound: Compressed;
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

export function fillSiteTokens(html: string, site: Config['site']): string {
  const phoneTel = site.phone.replace(/[^\d+]/g, '');
  const json = JSON.stringify({ name: site.name, email: site.email, phone: site.phone, phoneTel }).replace(
    /</g,
    '\\u003c',
  );
  // Replacer functions: a `$&` or `$'` in a value must stay literal text.
  return html
    .replaceAll('%%SITE_CONFIG_JSON%%', () => json)
    .replaceAll('%%SITE_NAME%%', () => escapeHtml(site.name))
    .replaceAll('%%SITE_EMAIL%%', () => escapeHtml(site.email))
    .replaceAll('%%SITE_PHONE_TEL%%', () => escapeHtml(phoneTel))
    .replaceAll('%%SITE_PHONE%%', () => escapeHtml(site.phone));
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

export function loadStaticSite(clientDir: string, site: Config['site']): StaticSite {
  const pages = new Map<string, Compressed>();
  let notFound = compressText('<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>');
  let appShell: Compressed | undefined;
  for (const file of htmlFiles(clientDir)) {
    const html = compressText(fillSiteTokens(readFileSync(path.join(clientDir, file), 'utf8'), site));
    if (file === '404.html') notFound = html;
    else if (file === 'app.html') appShell = html;
    else if (file === 'index.html') pages.set('/', html);
    else if (file.endsWith('/index.html')) pages.set(`/${file.slice(0, -'/index.html'.length)}`, html);
  }
  return {
    page: (pathname) => {
      const p = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
      if (isAppPath(p)) return appShell;
      // A booked call's private page: one page for every token, which the browser reads.
      if (/^\/booking\/[A-Za-z0-9_-]{1,100}$/.test(p)) return pages.get('/booking');
      return pages.get(p);
    },
    notFound,
  };
}

export function findClientDir(root: string): string | undefined {
  const dir = path.join(root, 'dist', 'client');
  return existsSync(path.join(dir, 'index.html')) ? dir : undefined;
}
