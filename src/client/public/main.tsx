import './styles.css';
import { hydrate, type ComponentChild } from 'preact';
import type { ComponentType } from 'react';
import { readSiteConfig } from '#client/lib/site-config.ts';
import { startTracker } from './analytics-tracker.ts';
import { ISLAND_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE, ISLANDS, type IslandName } from './island-registry.ts';
import { PUBLIC_PAGE_ATTRIBUTE, PUBLIC_ROOT_ID } from './shell.ts';
import { SiteConfigProvider } from './site-config-context.tsx';

/**
 * Browser entry of the public pages. The page is prerendered HTML; only its islands (the
 * header's menu, the Get Started button, the lead form, the toasts) are hydrated, each with
 * the props the prerender wrote and the site config the server filled in, so each hydrated
 * tree matches its HTML. In dev (`npm run dev`, no prerender) the root is empty: the whole
 * page renders instead, from code that the production build leaves out.
 */
const root = document.getElementById(PUBLIC_ROOT_ID);
const config = readSiteConfig();

// Written as React, built against Preact (vite.public.config.ts aliases react → preact/compat).
const withConfig = (children: unknown) =>
  (<SiteConfigProvider config={config}>{children as never}</SiteConfigProvider>) as unknown as ComponentChild;

async function start(root: HTMLElement) {
  if (root.firstElementChild) {
    for (const element of root.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}]`)) {
      const Component = ISLANDS[element.getAttribute(ISLAND_ATTRIBUTE) as IslandName] as ComponentType<Record<string, unknown>> | undefined;
      if (!Component) continue;
      const props = JSON.parse(element.getAttribute(ISLAND_PROPS_ATTRIBUTE) ?? '{}') as Record<string, unknown>;
      hydrate(withConfig(<Component {...props} />), element);
    }
  } else if (import.meta.env.DEV) {
    const { render } = await import('preact');
    const { PublicApp, isPublicPageKey, pageKeyForPath } = await import('./pages.tsx');
    const named = root.getAttribute(PUBLIC_PAGE_ATTRIBUTE) ?? undefined;
    const page = isPublicPageKey(named) ? named : pageKeyForPath(window.location.pathname);
    render((<PublicApp page={page} config={config} />) as unknown as ComponentChild, root);
  }
  // Lets browser tests wait until the page is interactive.
  document.documentElement.setAttribute('data-hydrated', 'true');
  // After hydration, so it never delays the page.
  startTracker();
}

if (root) void start(root);
