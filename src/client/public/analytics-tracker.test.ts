// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANALYTICS_SESSION_KEY, SESSION_ID_PATTERN } from '#shared/constants';
import { analyticsEventRequestSchema, type AnalyticsEventRequest } from '#shared/schemas/analytics';
import {
  ANALYTICS_EVENTS_PATH,
  readSessionId,
  sendEvent,
  startTracker,
  visitorOptedOut,
  type TrackerOptions,
} from './analytics-tracker.ts';

type Sent = { event: AnalyticsEventRequest; leaving: boolean };

let sent: Sent[];
let stops: Array<() => void>;

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

function start(options: Partial<TrackerOptions> = {}) {
  const stop = startTracker({
    now: () => Date.now(),
    send: (event, leaving) => {
      sent.push({ event, leaving });
    },
    storage: window.localStorage,
    location: { pathname: '/', search: '' },
    optedOut: false,
    ...options,
  });
  stops.push(stop);
  return stop;
}

const events = (type: AnalyticsEventRequest['event_type']) => sent.filter((s) => s.event.event_type === type);

beforeEach(() => {
  vi.useFakeTimers();
  window.localStorage.clear();
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  sent = [];
  stops = [];
});

afterEach(() => {
  for (const stop of stops) stop();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('pageview', () => {
  it('is sent on start with the referrer, and the UTM values only with the session’s first pageview', () => {
    vi.spyOn(document, 'referrer', 'get').mockReturnValue('https://search.example/?q=due+diligence');
    const landing = { pathname: '/careers', search: '?utm_source=news&utm_medium=email&utm_campaign=spring&x=1' };
    start({ location: landing });
    start({ location: landing });

    expect(sent).toHaveLength(2);
    const [first, second] = sent.map((s) => s.event);
    expect(first).toEqual({
      session_id: expect.stringMatching(SESSION_ID_PATTERN),
      event_type: 'pageview',
      page_path: '/careers',
      referrer: 'https://search.example/?q=due+diligence',
      utm_source: 'news',
      utm_medium: 'email',
      utm_campaign: 'spring',
    });
    expect(second?.session_id).toBe(first?.session_id);
    expect(second).not.toHaveProperty('utm_source', expect.anything());
    expect(JSON.parse(JSON.stringify(second))).toEqual({
      session_id: first?.session_id,
      event_type: 'pageview',
      page_path: '/careers',
      referrer: 'https://search.example/?q=due+diligence',
    });
  });

  it('leaves out an empty referrer and caps long UTM values', () => {
    start({ location: { pathname: '/', search: `?utm_source=${'a'.repeat(300)}` } });
    const event = JSON.parse(JSON.stringify(sent[0]?.event)) as AnalyticsEventRequest;
    expect(event).not.toHaveProperty('referrer');
    expect(event.utm_source).toHaveLength(200);
  });

  it('caps a UTM value without cutting an emoji in half (the server refuses a lone surrogate)', () => {
    start({ location: { pathname: '/', search: `?utm_source=${'a'.repeat(199)}${encodeURIComponent('🏠')}` } });
    const event = sent[0]?.event as AnalyticsEventRequest;
    expect(event.utm_source).toBe('a'.repeat(199));
    expect(analyticsEventRequestSchema.safeParse(event).success).toBe(true);
  });

  it('is sent again when history changes the path, after the old page’s time', () => {
    const location = { pathname: '/', search: '' };
    start({ location });
    vi.advanceTimersByTime(5_000);
    window.dispatchEvent(new Event('hashchange')); // same path: nothing
    location.pathname = '/privacy';
    window.dispatchEvent(new Event('popstate'));
    expect(sent.map((s) => [s.event.event_type, s.event.page_path, s.event.time_spent])).toEqual([
      ['pageview', '/', undefined],
      ['time_spent', '/', 5],
      ['pageview', '/privacy', undefined],
    ]);
  });
});

describe('session id', () => {
  it('is created, stored under analytics_session_id and reused', () => {
    start();
    const stored = window.localStorage.getItem(ANALYTICS_SESSION_KEY);
    expect(stored).toMatch(SESSION_ID_PATTERN);
    expect(stored).toHaveLength(22);
    start();
    expect(sent.map((s) => s.event.session_id)).toEqual([stored, stored]);
  });

  it('replaces a malformed stored id', () => {
    window.localStorage.setItem(ANALYTICS_SESSION_KEY, 'bad id!');
    const { id, isNew } = readSessionId(window.localStorage);
    expect(isNew).toBe(true);
    expect(id).toMatch(SESSION_ID_PATTERN);
    expect(window.localStorage.getItem(ANALYTICS_SESSION_KEY)).toBe(id);
  });

  it('lives in memory when storage is unavailable', () => {
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    start({ storage: blocked });
    vi.advanceTimersByTime(30_000);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.event.session_id).toMatch(SESSION_ID_PATTERN);
    expect(sent[1]?.event.session_id).toBe(sent[0]?.event.session_id);
  });
});

describe('Global Privacy Control and Do Not Track', () => {
  it('are read from the navigator (and the window, for older browsers)', () => {
    const nav = (fields: Record<string, unknown>) => fields as unknown as Navigator;
    const win = (fields: Record<string, unknown>) => fields as unknown as Window;
    expect(visitorOptedOut(nav({ globalPrivacyControl: true }), win({}))).toBe(true);
    expect(visitorOptedOut(nav({ doNotTrack: '1' }), win({}))).toBe(true);
    expect(visitorOptedOut(nav({}), win({ doNotTrack: '1' }))).toBe(true);
    expect(visitorOptedOut(nav({ globalPrivacyControl: false, doNotTrack: '0' }), win({ doNotTrack: 'unspecified' }))).toBe(false);
  });

  it('store nothing (an earlier id is removed) and send one anonymous pageview per page, with no time on page', () => {
    window.localStorage.setItem(ANALYTICS_SESSION_KEY, 'AbCdEfGhIjKlMnOpQrStUv');
    start({ optedOut: true, location: { pathname: '/privacy', search: '?utm_source=news' } });
    expect(window.localStorage.getItem(ANALYTICS_SESSION_KEY)).toBeNull();
    vi.advanceTimersByTime(95_000);
    setVisibility('hidden');
    setVisibility('visible');
    vi.advanceTimersByTime(35_000);
    window.dispatchEvent(new Event('pagehide'));
    expect(sent.map((s) => s.event.event_type)).toEqual(['pageview']);
    expect(sent[0]!.event.page_path).toBe('/privacy');
    expect(sent[0]!.event.session_id).toMatch(SESSION_ID_PATTERN);
    expect(sent[0]!.event.session_id).not.toBe('AbCdEfGhIjKlMnOpQrStUv');
    // The next page is another anonymous pageview, not the same visitor.
    start({ optedOut: true });
    expect(sent).toHaveLength(2);
    expect(sent[1]!.event.session_id).not.toBe(sent[0]!.event.session_id);
    expect(window.localStorage.getItem(ANALYTICS_SESSION_KEY)).toBeNull();
  });
});

describe('heartbeat', () => {
  it('is sent every 30 s while visible, with the seconds since the last record', () => {
    start();
    vi.advanceTimersByTime(29_999);
    expect(events('heartbeat')).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(events('heartbeat').map((s) => s.event)).toEqual([
      expect.objectContaining({ event_type: 'heartbeat', page_path: '/', time_spent: 30 }),
    ]);
    vi.advanceTimersByTime(30_000);
    expect(events('heartbeat').map((s) => s.event.time_spent)).toEqual([30, 30]);
    expect(events('heartbeat').every((s) => !s.leaving)).toBe(true);
  });

  it('is not sent while hidden, and hidden time is not counted', () => {
    start();
    vi.advanceTimersByTime(10_000);
    setVisibility('hidden'); // time_spent 10
    vi.advanceTimersByTime(120_000);
    expect(events('heartbeat')).toHaveLength(0);
    setVisibility('visible');
    vi.advanceTimersByTime(29_000);
    expect(events('heartbeat')).toHaveLength(0);
    vi.advanceTimersByTime(1_000);
    expect(events('heartbeat').map((s) => s.event.time_spent)).toEqual([30]);
    expect(events('time_spent').map((s) => s.event.time_spent)).toEqual([10]);
  });

  it('does not start while the page loads hidden', () => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    start();
    vi.advanceTimersByTime(90_000);
    expect(sent.map((s) => s.event.event_type)).toEqual(['pageview']);
  });
});

describe('time_spent', () => {
  it('is sent as a beacon on hide with the seconds since the last record, once', () => {
    start();
    vi.advanceTimersByTime(30_000); // heartbeat 30
    vi.advanceTimersByTime(12_700);
    setVisibility('hidden');
    window.dispatchEvent(new Event('pagehide')); // already counted
    expect(events('time_spent')).toEqual([
      { event: expect.objectContaining({ event_type: 'time_spent', page_path: '/', time_spent: 12 }), leaving: true },
    ]);
  });

  it('is sent on pagehide', () => {
    start();
    vi.advanceTimersByTime(3_000);
    window.dispatchEvent(new Event('pagehide'));
    expect(events('time_spent').map((s) => s.event.time_spent)).toEqual([3]);
  });

  it('is not sent when less than 1 s was spent', () => {
    start();
    vi.advanceTimersByTime(999);
    setVisibility('hidden');
    expect(events('time_spent')).toHaveLength(0);
  });

  it('never counts a second twice: the parts add up to the visible time', () => {
    start();
    vi.advanceTimersByTime(45_500); // heartbeat 30 at 30 s
    setVisibility('hidden'); // 15 (0.5 s carried, then dropped on hide)
    vi.advanceTimersByTime(60_000);
    setVisibility('visible');
    vi.advanceTimersByTime(61_000); // heartbeats at 30 s and 60 s
    window.dispatchEvent(new Event('pagehide')); // 1
    const total = sent.reduce((sum, s) => sum + (s.event.time_spent ?? 0), 0);
    expect(total).toBe(45 + 61);
  });
});

describe('failures', () => {
  it('are only warned about, for a rejected or a throwing transport', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    start({ send: () => Promise.reject(new Error('offline')) });
    start({
      send: () => {
        throw new Error('boom');
      },
    });
    await vi.runOnlyPendingTimersAsync();
    expect(warn).toHaveBeenCalledTimes(4); // two pageviews, two heartbeats
  });
});

describe('sendEvent', () => {
  it('uses sendBeacon with a JSON Blob when leaving', async () => {
    const beacon = vi.fn((_url: string | URL, _data?: BodyInit | null) => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const event: AnalyticsEventRequest = { session_id: 'a'.repeat(22), event_type: 'time_spent', page_path: '/', time_spent: 4 };
    await sendEvent(event, true);
    expect(fetchSpy).not.toHaveBeenCalled();
    const [url, blob] = beacon.mock.calls[0] ?? [];
    expect(url).toBe(ANALYTICS_EVENTS_PATH);
    expect((blob as Blob).type).toBe('application/json');
    expect(JSON.parse(await (blob as Blob).text())).toEqual(event);
  });

  it('falls back to fetch with keepalive when the beacon is refused, and rejects on an error status', async () => {
    Object.defineProperty(navigator, 'sendBeacon', { value: () => false, configurable: true });
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 429 }));
    const event: AnalyticsEventRequest = { session_id: 'a'.repeat(22), event_type: 'pageview', page_path: '/' };
    await expect(sendEvent(event, true)).rejects.toThrow('HTTP 429');
    expect(fetchSpy).toHaveBeenCalledWith(ANALYTICS_EVENTS_PATH, {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(event),
    });
  });
});

describe('the lead form funnel', () => {
  function withForm() {
    const form = document.createElement('form');
    form.setAttribute('data-lead-form', '');
    const input = document.createElement('input');
    form.append(input);
    document.body.append(form);
    let inView: (() => void) | undefined;
    const stopped = vi.fn();
    const watchInView = (element: Element, seen: () => void) => {
      expect(element).toBe(form);
      inView = seen;
      return stopped;
    };
    return { form, input, watchInView, scrollIntoView: () => inView?.(), stopped, remove: () => form.remove() };
  }

  it('sends form_view once when the form comes into view and form_start once when a field is first focused, each valid for the API', () => {
    const f = withForm();
    start({ watchInView: f.watchInView });
    expect(events('form_view')).toHaveLength(0);
    f.scrollIntoView();
    f.scrollIntoView();
    expect(events('form_view')).toHaveLength(1);
    expect(f.stopped).toHaveBeenCalled();
    f.input.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    f.input.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(events('form_start')).toHaveLength(1);
    for (const { event } of sent) expect(analyticsEventRequestSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
    expect(events('form_start')[0]!.event).toEqual({ session_id: sent[0]!.event.session_id, page_path: '/', event_type: 'form_start' });
    f.remove();
  });

  it('counts a field focused before the observer fired as seen first, then started', () => {
    const f = withForm();
    start({ watchInView: f.watchInView });
    f.input.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(sent.map((s) => s.event.event_type)).toEqual(['pageview', 'form_view', 'form_start']);
    f.remove();
  });

  it('sends neither for a visitor who opted out of tracking, nor on a page without the form', () => {
    const f = withForm();
    start({ watchInView: f.watchInView, optedOut: true });
    f.scrollIntoView();
    f.input.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(sent.map((s) => s.event.event_type)).toEqual(['pageview']);
    f.remove();
    sent = [];
    start();
    expect(sent.map((s) => s.event.event_type)).toEqual(['pageview']);
  });
});
