import { prerenderToNodeStream } from 'react-dom/static';
import type { SiteConfig } from '#client/lib/site-config.ts';
import { PublicApp, pageMeta, type PublicPageKey, type PublicPageMeta } from './pages.tsx';

/**
 * Server entry used only by scripts/prerender.ts (built with `vite build --ssr`): each public
 * page rendered to static HTML by React's own server renderer, which the browser entry
 * (public/main.tsx) hydrates island by island with `hydrateRoot`.
 */
export { PUBLIC_PAGES } from './pages.tsx';
export type { PublicPageKey } from './pages.tsx';

export async function renderPublicPage(page: PublicPageKey, config: SiteConfig): Promise<{ html: string; meta: PublicPageMeta }> {
  // `prerender…` (not renderToString) waits for anything suspended, so the HTML is always whole.
  const { prelude } = await prerenderToNodeStream(<PublicApp page={page} config={config} />, {
    onError(error) {
      throw error;
    },
  });
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return { html: Buffer.concat(chunks).toString('utf8'), meta: pageMeta(page, config) };
}
