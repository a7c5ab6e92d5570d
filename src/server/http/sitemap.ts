/**
 * The sitemap (https://www.sitemaps.org/protocol.html): every public page search engines may
 * list, as absolute URLs on the site's origin, each with the time its words last changed — the
 * later of the build and the last save in Settings → Website — so a crawler comes back for
 * the new words after a save.
 */
export function sitemapXml(origin: URL, paths: readonly string[], lastModified: Date): string {
  const lastmod = lastModified.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const urls = paths.map(
    (p) => `  <url>\n    <loc>${escapeXml(new URL(p, origin).href)}</loc>\n    <lastmod>${lastmod}</lastmod>\n  </url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** robots.txt as built, with the sitemap's absolute URL (the protocol wants one; the origin is known only when serving). */
export function robotsTxt(built: string, origin: URL): string {
  return `${built.trimEnd()}\nSitemap: ${new URL('/sitemap.xml', origin).href}\n`;
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!);

/** The later of two times, one of them maybe absent (words never saved). */
export const laterOf = (a: Date, b: string | null): Date => (b !== null && new Date(b).getTime() > a.getTime() ? new Date(b) : a);
