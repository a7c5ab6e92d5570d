import './styles.css';
import { startTransition, useEffect, type ComponentType, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { toast } from '#client/components/ui/toast-store.ts';
import { readSiteConfig } from '#client/lib/site-config.ts';
import { startTracker } from './analytics-tracker.ts';
import { ISLAND_CODE, isDeferred, type DeferredIsland } from './island-code.ts';
import type { IslandName } from './island-registry.ts';
import { ISLAND_ATTRIBUTE, ISLAND_LIVE_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE, PUBLIC_PAGE_ATTRIBUTE, PUBLIC_ROOT_ID } from './shell.ts';
import { SiteConfigProvider } from './site-config-context.tsx';

/**
 * Browser entry of the public pages. The page is prerendered HTML; only its islands (the
 * header's menu, the Get Started button, the lead form, the toasts, a booking's page) are
 * hydrated, each as a React root of its own, with the props the prerender wrote and the site
 * config the server filled in, so each hydrated tree matches its HTML. In dev (`npm run dev`,
 * no prerender) the root is empty: the whole page renders instead, from code that the
 * production build leaves out.
 */
const root = document.getElementById(PUBLIC_ROOT_ID);
const config = readSiteConfig();
let pending = 0;

/** Calls `onReady` once its tree has been committed (hydrated); renders nothing. */
function Hydrated({ onReady }: { onReady: () => void }) {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the island first commits
  useEffect(() => onReady(), []);
  return null;
}

function hydrateIsland(element: HTMLElement, name: string, Component: ComponentType<Record<string, unknown>>, onLive?: () => void) {
  const props = JSON.parse(element.getAttribute(ISLAND_PROPS_ATTRIBUTE) ?? '{}') as Record<string, unknown>;
  pending += 1;
  const tree: ReactNode = (
    <SiteConfigProvider config={config}>
      <Component {...props} />
      <Hydrated
        onReady={() => {
          islandReady(element);
          onLive?.();
        }}
      />
    </SiteConfigProvider>
  );
  // A transition, so React hydrates in slices and yields to the browser between them.
  startTransition(() => {
    hydrateRoot(element, tree, {
      // The HTML did not match what the island renders: React renders it afresh, which works
      // but costs a repaint. Name the island, so the cause is found (the browser tests fail on it).
      onRecoverableError: (error) => console.error(`Hydration error in the ${name} island:`, error),
    });
  });
}

/** An island is live (`data-island-live` on its wrapper), or the page's start is done (no element). */
function islandReady(element?: HTMLElement) {
  element?.setAttribute(ISLAND_LIVE_ATTRIBUTE, '');
  pending -= 1;
  // Lets browser tests wait until the page is interactive: every island that came with the page is live.
  if (pending === 0) document.documentElement.setAttribute('data-hydrated', 'true');
}

/**
 * Hydrates a deferred island once the visitor nears it or touches it. Until then a submit is
 * held (the form's HTML would otherwise send itself as a GET, putting what was typed in the
 * address) and made again once the island is live. Code that could not be loaded (offline) is
 * asked for again at the next focus, press or submit; a held submit is answered with a toast.
 */
function hydrateWhenNear(element: HTMLElement, name: string, code: DeferredIsland) {
  let loading = false;
  let heldSubmit: HTMLFormElement | null = null;
  const holdSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (event.target instanceof HTMLFormElement) heldSubmit = event.target;
    load();
  };
  const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && load(), {
    rootMargin: '100% 0px',
  });
  function load() {
    if (loading) return;
    loading = true;
    code.loadWhenNear().then(
      (Component) => {
        observer.disconnect();
        element.removeEventListener('focusin', load);
        element.removeEventListener('pointerdown', load);
        // From here React listens: a submit while it hydrates makes it finish at once and handle it.
        element.removeEventListener('submit', holdSubmit);
        hydrateIsland(element, name, Component, () => {
          // A submit held before React listened: React's handler gets it now, in the next frame,
          // once the island has taken what was typed (LeadForm's layout effect).
          const form = heldSubmit;
          if (form) requestAnimationFrame(() => form.requestSubmit());
        });
      },
      (error: unknown) => {
        loading = false;
        console.error(`The ${name} island's code could not be loaded`, error);
        if (heldSubmit) toast.error(code.unavailable);
        heldSubmit = null;
      },
    );
  }
  element.addEventListener('submit', holdSubmit);
  element.addEventListener('focusin', load);
  element.addEventListener('pointerdown', load);
  // The wrapper is `display: contents`, with no box of its own to intersect: watch what it holds.
  for (const child of element.children) observer.observe(child);
}

async function start(root: HTMLElement) {
  pending += 1; // until every island that came with the page has started
  if (root.firstElementChild) {
    for (const element of root.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}]`)) {
      const name = element.getAttribute(ISLAND_ATTRIBUTE) as IslandName;
      const code = ISLAND_CODE[name];
      if (!code) continue;
      if (isDeferred(code)) hydrateWhenNear(element, name, code);
      else hydrateIsland(element, name, code);
    }
  } else if (import.meta.env.DEV) {
    const { PublicApp, isPublicPageKey, pageKeyForPath } = await import('./pages.tsx');
    const named = root.getAttribute(PUBLIC_PAGE_ATTRIBUTE) ?? undefined;
    const page = isPublicPageKey(named) ? named : pageKeyForPath(window.location.pathname);
    createRoot(root).render(<PublicApp page={page} config={config} />);
  }
  islandReady();
  // After hydration has started, so it never delays the page.
  startTracker();
}

if (root) void start(root);
