import { ContentPage } from '#client/public/legal/content-page.tsx';
import { CONTENT_PAGES, type ContentPageKey } from '#client/public/legal/content.ts';
import { fillContent } from '#client/public/legal/fill-content.ts';
import { LandingPage } from '#client/public/landing/landing-page.tsx';
import { BookingPage } from '#client/public/booking/booking-page.tsx';
import { NotFoundPage } from '#client/public/not-found/not-found-page.tsx';
import { SiteConfigProvider } from '#client/public/site-config-context.tsx';
import type { SiteConfig } from '#client/lib/site-config.ts';
import { landingTitle } from '#shared/website-content';

/** The prerendered public pages: where each is written and what its <head> says. */
export type PublicPageKey = 'landing' | ContentPageKey | 'booking' | 'not-found';

export type PublicPageMeta = { title: string; description: string };

export const PUBLIC_PAGES: Record<PublicPageKey, { path: string | null; file: string }> = {
  landing: { path: '/', file: 'index.html' },
  careers: { path: '/careers', file: 'careers/index.html' },
  privacy: { path: '/privacy', file: 'privacy/index.html' },
  terms: { path: '/terms', file: 'terms/index.html' },
  cookies: { path: '/cookies', file: 'cookies/index.html' },
  // Served for /booking/<token> (see the server's static site).
  booking: { path: '/booking', file: 'booking/index.html' },
  'not-found': { path: null, file: '404.html' },
};

export function isPublicPageKey(value: string | undefined): value is PublicPageKey {
  return value !== undefined && Object.hasOwn(PUBLIC_PAGES, value);
}

/** Used in dev, where no prerendered page names itself. */
export function pageKeyForPath(pathname: string): PublicPageKey {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path.startsWith('/booking/')) return 'booking';
  const entry = Object.entries(PUBLIC_PAGES).find(([, page]) => page.path === path);
  return entry ? (entry[0] as PublicPageKey) : 'not-found';
}

export function pageMeta(page: PublicPageKey, config: SiteConfig): PublicPageMeta {
  // The home page's title and description are the firm's (Settings → Website); search results and shared links show them.
  if (page === 'landing')
    return { title: landingTitle(config.name, config.website.page_title), description: config.website.meta_description };
  if (page === 'booking') {
    return { title: `Your free call | ${config.name}`, description: 'See, move or cancel the call you booked.' };
  }
  if (page === 'not-found') {
    return {
      title: `Page Not Found | ${config.name}`,
      description: "The page you are looking for doesn't exist or has been moved.",
    };
  }
  const doc = CONTENT_PAGES[page];
  return { title: `${doc.title} | ${config.name}`, description: fillContent(doc.description, config) };
}

function PageBody({ page }: { page: PublicPageKey }) {
  switch (page) {
    case 'landing':
      return <LandingPage />;
    case 'not-found':
      return <NotFoundPage />;
    case 'booking':
      return <BookingPage />;
    default:
      return <ContentPage page={page} />;
  }
}

export function PublicApp({ page, config }: { page: PublicPageKey; config: SiteConfig }) {
  return (
    <SiteConfigProvider config={config}>
      <PageBody page={page} />
    </SiteConfigProvider>
  );
}
