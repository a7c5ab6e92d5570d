import { renderToString } from 'preact-render-to-string';
import type { VNode } from 'preact';
import type { SiteConfig } from '#client/lib/site-config.ts';
import { PublicApp, pageMeta, type PublicPageKey, type PublicPageMeta } from './pages.tsx';

/**
 * Server entry used only by scripts/prerender.ts (built with `vite build --ssr` and the
 * same Preact aliases as the browser bundle).
 */
export { PUBLIC_PAGES } from './pages.tsx';
export type { PublicPageKey } from './pages.tsx';

export function renderPublicPage(page: PublicPageKey, config: SiteConfig): { html: string; meta: PublicPageMeta } {
  const html = renderToString((<PublicApp page={page} config={config} />) as unknown as VNode);
  return { html, meta: pageMeta(page, config) };
}
