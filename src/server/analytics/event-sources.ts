/** Where a visit came from and on what, derived once at ingestion. */
export type Device = 'desktop' | 'mobile' | 'tablet';

/** The kind of device from a user agent (tablets first: their agents also say "Mobile"). */
export function deviceOf(userAgent: string | undefined): Device {
  const ua = userAgent ?? '';
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
