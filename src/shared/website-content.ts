/**
 * The website's words that are the firm's own (edited in Settings → Website), without zod, so
 * the public pages' bundle can use them: the type, the defaults and the placeholder tokens the
 * prerender writes in their place. The zod schema the server validates with is in
 * schemas/website.ts.
 */
export type WebsiteContent = {
  headline: string;
  subheadline: string;
  stats: { value: string; label: string }[];
  services: { title: string; text: string }[];
  city: string;
  address: string;
  legal_entity: string;
};

/** The number of stats under the headline and of service cards: the layout is built for these. */
export const WEBSITE_STATS = 4;
export const WEBSITE_SERVICES = 4;

/** What the site says until the firm saves its own words; `legal_entity` defaults to the site name. */
export const DEFAULT_WEBSITE_CONTENT: Omit<WebsiteContent, 'legal_entity'> = {
  headline: 'Real estate due diligence you can close on',
  subheadline: 'U.S.-based analysts underwrite your deal and deliver a clear, investor-ready report within 24 hours, in all 50 states.',
  stats: [
    { value: '24hr', label: 'Turnaround' },
    { value: '50', label: 'States Coverage' },
    { value: '100+', label: 'Active Clients' },
    { value: '5,000+', label: 'Reports Delivered' },
  ],
  services: [
    { title: 'Deal underwriting', text: 'Purchase price, rents, expenses, financing and returns, stress-tested so you know where the deal breaks.' },
    { title: 'Market and comparables analysis', text: 'Recent sales, rental comps and neighborhood trends gathered and checked by local experts.' },
    { title: 'Property risk review', text: 'Zoning, permits, taxes, flood zones and other red flags that belong in your decision, not your surprises.' },
    { title: 'Custom investor reports', text: 'Reports shaped around your strategy, from fix-and-flip to buy-and-hold, ready to share with partners and lenders.' },
  ],
  city: 'Frederick, MD',
  address: '123 Main Street, Frederick, MD 21701',
};

export const defaultWebsiteContent = (siteName: string): WebsiteContent => ({ ...DEFAULT_WEBSITE_CONTENT, legal_entity: siteName });

/**
 * Each text of the content with the name of its placeholder token (`%%NAME%%`): the prerender
 * renders placeholderWebsiteContent()'s tokens, the server fills in `websiteTokens(saved)`'s values.
 */
export function websiteTokens(content: WebsiteContent): [string, string][] {
  return [
    ['W_HEADLINE', content.headline],
    ['W_SUBHEADLINE', content.subheadline],
    ...content.stats.flatMap((s, i): [string, string][] => [
      [`W_STAT${i}_VALUE`, s.value],
      [`W_STAT${i}_LABEL`, s.label],
    ]),
    ...content.services.flatMap((s, i): [string, string][] => [
      [`W_SERVICE${i}_TITLE`, s.title],
      [`W_SERVICE${i}_TEXT`, s.text],
    ]),
    ['W_CITY', content.city],
    ['W_ADDRESS', content.address],
    ['W_ENTITY', content.legal_entity],
  ];
}

const token = (name: string) => `%%${name}%%`;

/** The content the prerender renders: every text its token (a function, so the browser bundle leaves it out). */
export const placeholderWebsiteContent = (): WebsiteContent => ({
  headline: token('W_HEADLINE'),
  subheadline: token('W_SUBHEADLINE'),
  stats: Array.from({ length: WEBSITE_STATS }, (_, i) => ({ value: token(`W_STAT${i}_VALUE`), label: token(`W_STAT${i}_LABEL`) })),
  services: Array.from({ length: WEBSITE_SERVICES }, (_, i) => ({ title: token(`W_SERVICE${i}_TITLE`), text: token(`W_SERVICE${i}_TEXT`) })),
  city: token('W_CITY'),
  address: token('W_ADDRESS'),
  legal_entity: token('W_ENTITY'),
});

/** Whether a value read from the page (the JSON block) has the content's shape. */
export function isWebsiteContent(value: unknown): value is WebsiteContent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const strings = (o: unknown, keys: string[]) => typeof o === 'object' && o !== null && keys.every((k) => typeof (o as Record<string, unknown>)[k] === 'string');
  return (
    strings(v, ['headline', 'subheadline', 'city', 'address', 'legal_entity']) &&
    Array.isArray(v.stats) &&
    v.stats.length === WEBSITE_STATS &&
    v.stats.every((s) => strings(s, ['value', 'label'])) &&
    Array.isArray(v.services) &&
    v.services.length === WEBSITE_SERVICES &&
    v.services.every((s) => strings(s, ['title', 'text']))
  );
}
