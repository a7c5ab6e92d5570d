/** Where a visit came from and on what, derived once at ingestion. */
export type Device = 'desktop' | 'mobile' | 'tablet';

/**
 * How much of a user agent the device patterns read. Real agents are 100-300 characters and
 * name the platform near the start; `Android(?!.*Mobile)` scans the rest of the text from
 * every "Android", so a long agent made of them costs time on the process's one thread for
 * every event (docs/security.md, "Analytics: isolation, retention and caps"; the figure in
 * docs/performance.md, "Measurements behind the code").
 */
export const USER_AGENT_PARSE_LIMIT = 512;

/** The kind of device from a user agent (tablets first: their agents also say "Mobile"). */
export function deviceOf(userAgent: string | undefined): Device {
  const ua = (userAgent ?? '').slice(0, USER_AGENT_PARSE_LIMIT);
  if (/iPad|Tablet|PlayBook|Silk|Kindle|Android(?!.*Mobile)/i.test(ua)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone|Opera Mini/i.test(ua)) return 'mobile';
  return 'desktop';
}

/**
 * The referring site's host without "www.", "Direct" without a referrer, or undefined when
 * the referrer is our own site (moving between our pages is not a source).
 */
export function referrerHostOf(referrer: string | undefined, ownHost: string): string | undefined {
  if (!referrer) return 'Direct';
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return 'Direct';
  }
  const bare = (h: string) => h.replace(/^www\./, '');
  if (bare(host) === bare(ownHost.toLowerCase().replace(/:\d+$/, ''))) return undefined;
  return bare(host).slice(0, 200) || 'Direct';
}
