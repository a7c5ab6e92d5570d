import '#client/lib/zod-jitless.ts';
import './styles.css';
import { hydrate, render, type ComponentChild } from 'preact';
import { startTracker } from '#client/public/analytics-tracker.ts';
import { readSiteConfig } from '#client/lib/site-config.ts';
import { PUBLIC_PAGE_ATTRIBUTE, PUBLIC_ROOT_ID } from './shell.ts';
import { PublicApp, isPublicPageKey, pageKeyForPath } from './pages.tsx';

/**
 * Browser entry of the public pages. The prerendered HTML names its page on the root
 * element and carries the site config the server filled in; rendering with both makes
 * the hydrated tree match the HTML. In dev the root is empty, so it renders instead.
 */
const root = document.getElementById(PUBLIC_ROOT_ID);
if (root) {
  const named = root.getAttribute(PUBLIC_PAGE_ATTRIBUTE) ?? undefined;
  const page = isPublicPageKey(named) ? named : pageKeyForPath(window.location.pathname);
  // Written as React, built against Preact (vite.public.config.ts aliases react → preact/compat).
  const app = (<PublicApp page={page} config={readSiteConfig()} />) as unknown as ComponentChild;
  if (root.firstElementChild) hydrate(app, root);
  else render(app, root);
  // Lets browser tests wait until the page is interactive.
  document.documentElement.setAttribute('data-hydrated', 'true');
  // Public pages only; after hydration so it never delays rendering.
  startTracker();
}
