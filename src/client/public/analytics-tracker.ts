import { ANALYTICS_SESSION_KEY, MAX_EVENT_SECONDS, SESSION_ID_PATTERN } from '#shared/constants';
import type { AnalyticsEventRequest } from '#shared/schemas/analytics';

/**
 * First-party, cookie-free tracker of the public pages (docs/product-rules.md, "Analytics"): a pageview per page,
 * a heartbeat every 30 s while the page is visible, time_spent on leaving, and, once per page,
 * form_view when the lead form scrolls into view and form_start when its first field is focused. Each heartbeat
 * and time_spent carries the whole seconds since that page's previous record, so summing them
 * never counts a second twice, and only visible time counts. It imports constants and types
 * only (no zod, no API client): the tracker must stay under 2 KB gzipped on `/`.
 */
export const ANALYTICS_EVENTS_PATH = '/api/public/events';
export const HEARTBEAT_MS = 30_000;

/** Sends one event; `leaving` means the page may be closing, so it should use a beacon. */
export type SendEvent = (event: AnalyticsEventRequest, leaving: boolean) => unknown;

export type TrackerOptions = {
  /** Milliseconds from a monotonic clock. */
  now: () => number;
  send: SendEvent;
  /** null when browser storage is unavailable: the session id then lives as long as the page. */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /**
   * The visitor asked not to be tracked (Global Privacy Control or Do Not Track): nothing is
   * stored in the browser (a stored session id is removed), and each page is one anonymous
   * pageview with an id of its own, no heartbeat, no time on page, no link to a lead.
   */
  optedOut: boolean;
  document: Pick<Document, 'visibilityState' | 'referrer' | 'addEventListener' | 'removeEventListener' | 'querySelector'>;
  /** Calls `seen` once `element` is (partly) in view; the default uses IntersectionObserver. */
  watchInView: (element: Element, seen: () => void) => () => void;
  window: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  location: Pick<Location, 'pathname' | 'search'>;
};

const warn = (error: unknown) => console.warn('Analytics event not recorded', error);

/**
 * The real transport. sendBeacon survives the page closing; it throws for a JSON Blob in
 * Chrome before 81 (https://crbug.com/490015) and returns false when its queue is full, so
 * fetch with keepalive is the fallback.
 */
export const sendEvent: SendEvent = (event, leaving) => {
  const body = JSON.stringify(event);
  try {
    if (leaving && navigator.sendBeacon(ANALYTICS_EVENTS_PATH, new Blob([body], { type: 'application/json' }))) return;
  } catch {
    // fall back to fetch
  }
  return fetch(ANALYTICS_EVENTS_PATH, {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body,
  }).then((response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  });
};

function browserStorage(): TrackerOptions['storage'] {
  try {
    return window.localStorage; // throws when storage is blocked
  } catch {
    return null;
  }
}

/** The page's lead form carries this attribute. */
export const LEAD_FORM_SELECTOR = '[data-lead-form]';

const watchInView: TrackerOptions['watchInView'] = (element, seen) => {
  if (typeof IntersectionObserver === 'undefined') return () => undefined;
  const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && seen());
  observer.observe(element);
  return () => observer.disconnect();
};

/** Global Privacy Control, or Do Not Track (the navigator's, or the window's in older browsers). */
export function visitorOptedOut(nav: Navigator = navigator, win: Window = window): boolean {
  const n = nav as Navigator & { globalPrivacyControl?: boolean };
  return n.globalPrivacyControl === true || n.doNotTrack === '1' || (win as Window & { doNotTrack?: string }).doNotTrack === '1';
}

/** 16 random bytes as base64url: 22 characters. */
function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The visitor's stored analytics session id, if any (the lead form sends it for attribution). */
export function storedSessionId(): string | undefined {
  try {
    const stored = window.localStorage.getItem(ANALYTICS_SESSION_KEY);
    return stored && SESSION_ID_PATTERN.test(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** The stored session id, or a new one (`isNew` true) when none is stored or it is malformed. */
export function readSessionId(storage: TrackerOptions['storage']): { id: string; isNew: boolean } {
  try {
    const stored = storage?.getItem(ANALYTICS_SESSION_KEY);
    if (stored && SESSION_ID_PATTERN.test(stored)) return { id: stored, isNew: false };
  } catch {
    // storage blocked: a new id for this page
  }
  const id = newSessionId();
  try {
    storage?.setItem(ANALYTICS_SESSION_KEY, id);
  } catch {
    // quota or private mode: the id lives in memory for the page's life
  }
  return { id, isNew: true };
}

/**
 * Drops NUL characters and caps the length without cutting a surrogate pair in half: the
 * server refuses both a NUL and a lone surrogate (docs/security.md, "Text the API accepts").
 */
const clip = (value: string | null, max: number) =>
  value
    ?.replace(/\0/g, '')
    .slice(0, max)
    .replace(/[\ud800-\udbff]$/, '') || undefined;

/** The path recorded for a page: a booking's private link is recorded as /booking, never with its token. */
export const trackedPath = (pathname: string) => (pathname.startsWith('/booking/') ? '/booking' : pathname.slice(0, 512) || '/');

/** Starts tracking the current page; returns a function that stops it (used by tests). */
export function startTracker(options: Partial<TrackerOptions> = {}): () => void {
  const {
    now,
    send,
    storage,
    document: doc,
    window: win,
    location: loc,
    optedOut,
    watchInView: watch,
  } = {
    now: () => performance.now(),
    watchInView,
    send: sendEvent,
    storage: browserStorage(),
    document,
    window,
    location,
    optedOut: visitorOptedOut(),
    ...options,
  };
  if (optedOut) {
    try {
      storage?.removeItem(ANALYTICS_SESSION_KEY);
    } catch {
      // storage blocked: nothing is stored anyway
    }
  }
  const session = readSessionId(optedOut ? null : storage);
  let path = '';
  let mark = 0; // when the current page's counted time starts
  let counting = false; // false while hidden or after leaving
  let timer: ReturnType<typeof setInterval> | undefined;

  const record = (event: Omit<AnalyticsEventRequest, 'session_id' | 'page_path'>, leaving = false) => {
    try {
      Promise.resolve(send({ session_id: session.id, page_path: path, ...event }, leaving)).catch(warn);
    } catch (error) {
      warn(error);
    }
  };

  /** Records the whole seconds counted since the last record, if at least `minSeconds`. */
  const recordTime = (eventType: 'heartbeat' | 'time_spent', minSeconds: number, leaving = false) => {
    const seconds = Math.floor((now() - mark) / 1000);
    if (!counting || seconds < minSeconds) return;
    // Beyond the cap (a machine asleep with the page open), the rest is not time on the page.
    if (seconds > MAX_EVENT_SECONDS) mark = now();
    else mark += seconds * 1000; // carry the fraction to the next record
    record({ event_type: eventType, time_spent: Math.min(seconds, MAX_EVENT_SECONDS) }, leaving);
  };

  const resume = () => {
    clearInterval(timer);
    counting = doc.visibilityState === 'visible';
    mark = now();
    if (counting) timer = setInterval(() => recordTime('heartbeat', HEARTBEAT_MS / 1000), HEARTBEAT_MS);
  };

  const leave = () => {
    recordTime('time_spent', 1, true);
    counting = false;
    clearInterval(timer);
  };

  const pageview = (first: boolean) => {
    path = trackedPath(loc.pathname);
    const event: Omit<AnalyticsEventRequest, 'session_id' | 'page_path'> = { event_type: 'pageview' };
    if (first) event.referrer = clip(doc.referrer, 1000);
    if (first && session.isNew) {
      const query = new URLSearchParams(loc.search);
      for (const key of ['utm_source', 'utm_medium', 'utm_campaign'] as const) event[key] = clip(query.get(key), 200);
    }
    record(event);
    if (!optedOut) resume();
  };

  const onVisibility = () => (doc.visibilityState === 'hidden' ? leave() : !counting && !optedOut && resume());
  // The public pages are separate documents; only history moves within one change the path.
  const onHistory = () => {
    if (trackedPath(loc.pathname) === path) return;
    leave();
    pageview(false);
  };
  // A page restored from the back/forward cache is viewed again, as a reload would be.
  const onPageShow = (event: Event) => (event as PageTransitionEvent).persisted && pageview(false);

  // The lead form's funnel steps, once per page: seen (scrolled into view), then started.
  const form = optedOut ? null : doc.querySelector(LEAD_FORM_SELECTOR);
  let formSeen = false;
  let formStarted = false;
  let stopWatching = () => undefined as unknown;
  const onFormSeen = () => {
    if (formSeen) return;
    formSeen = true;
    stopWatching();
    record({ event_type: 'form_view' });
  };
  const onFormStart = () => {
    if (formStarted) return;
    onFormSeen(); // a field focused is a form seen, even before the observer says so
    formStarted = true;
    record({ event_type: 'form_start' });
  };
  if (form) stopWatching = watch(form, onFormSeen);
  form?.addEventListener('focusin', onFormStart);

  doc.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('pagehide', leave);
  win.addEventListener('pageshow', onPageShow);
  win.addEventListener('popstate', onHistory);
  win.addEventListener('hashchange', onHistory);
  pageview(true);

  return () => {
    clearInterval(timer);
    stopWatching();
    form?.removeEventListener('focusin', onFormStart);
    doc.removeEventListener('visibilitychange', onVisibility);
    win.removeEventListener('pagehide', leave);
    win.removeEventListener('pageshow', onPageShow);
    win.removeEventListener('popstate', onHistory);
    win.removeEventListener('hashchange', onHistory);
  };
}
