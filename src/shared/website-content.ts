/**
 * What the public website says about the firm (edited in Settings → Website), without zod, so
 * the public pages' bundle can use it: the type, the defaults and the placeholder tokens the
 * prerender writes in their place. The zod schema the server validates with is in
 * schemas/website.ts. The layout, the headings and the product's own texts (the form, the
 * legal pages' prose) stay in the code; every claim the firm makes is here.
 */
export type WebsiteContent = {
  /** The brand and the contact details shown on the site (SITE_NAME, SITE_EMAIL, SITE_PHONE until saved). */
  site_name: string;
  email: string;
  phone: string;
  /** The home page's <title> and meta description, which search results and shared links show (og:title, og:description). */
  page_title: string;
  meta_description: string;
  /** The hero: the badge above the headline, the headline, the subheadline, its highlights and the figures under them. */
  hero_badge: string;
  headline: string;
  subheadline: string;
  highlights: string[];
  stats: { value: string; label: string }[];
  /** About: two paragraphs and the points beside them. */
  about_intro: string;
  about_more: string;
  about_points: string[];
  /** Services: the sentence under the heading and the cards. */
  services_intro: string;
  services: { title: string; text: string }[];
  /** How it works: the sentence under the heading and what each step says (the steps' titles are the product's). */
  steps_intro: string;
  steps: string[];
  /** Why choose: the sentence under the heading and the cards. */
  why_intro: string;
  reasons: { title: string; text: string }[];
  /** The contact section's sentence and the line under the lead form's button. */
  contact_intro: string;
  form_note: string;
  /** The sentence under the brand in the footer. */
  tagline: string;
  city: string;
  address: string;
  legal_entity: string;
};

/** The figures under the headline: at least one, at most this many (the row is built for four). */
export const WEBSITE_STATS_MIN = 1;
export const WEBSITE_STATS = 4;
/** The lists whose length the layout fixes. */
export const WEBSITE_HIGHLIGHTS = 3;
export const WEBSITE_ABOUT_POINTS = 3;
export const WEBSITE_SERVICES = 4;
export const WEBSITE_STEPS = 3;
export const WEBSITE_REASONS = 4;

/** The titles of the three steps of How it works (docs/product-rules.md, "Pages"): the product's, not the firm's. */
export const STEP_TITLES = ['Submit a deal', 'Get your report', 'Close with confidence'] as const;

/** The brand and contact until saved: the environment's SITE_NAME, SITE_EMAIL and SITE_PHONE. */
export type SiteDefaults = { name: string; email: string; phone: string };
export const DEFAULT_SITE: SiteDefaults = { name: 'Keystone Due Diligence', email: 'info@example.com', phone: '(301) 555-0100' };

const DEFAULT_CITY = 'Frederick, MD';

/** The About point that names the city: its default follows the city saved before the point became editable. */
export const defaultLocationPoint = (city: string) => `Headquartered in ${city}, with local experts across all 50 states.`;

type FirmDefaults = Omit<WebsiteContent, 'site_name' | 'email' | 'phone' | 'legal_entity'>;

/** What the site says until the firm saves its own words (the brand, contact and legal name come from SiteDefaults). */
export const DEFAULT_WEBSITE_CONTENT: FirmDefaults = {
  page_title: 'Real Estate Due Diligence & Underwriting',
  meta_description:
    'U.S.-based real estate due diligence and underwriting: reports within 24 hours, reviewed by local experts, in all 50 states. Your first deal analysis is free.',
  hero_badge: 'First deal analysis free',
  headline: 'Real estate due diligence you can close on',
  subheadline: 'U.S.-based analysts underwrite your deal and deliver a clear, investor-ready report within 24 hours, in all 50 states.',
  highlights: [
    'Reports within 24 hours, reviewed by local experts',
    'Custom investor reports built around your strategy',
    'Your first deal analysis is free',
  ],
  stats: [
    { value: '24hr', label: 'Turnaround' },
    { value: '50', label: 'States Coverage' },
    { value: '100+', label: 'Active Clients' },
    { value: '5,000+', label: 'Reports Delivered' },
  ],
  about_intro:
    'We are a U.S.-based due diligence and underwriting team for real estate investors. We turn a property address into a clear answer: what the deal is worth, what could go wrong, and whether the numbers work.',
  about_more:
    'Investors, lenders and brokers use our reports to move quickly without cutting corners. Your first deal analysis is free, so you can see the quality of our work before you commit.',
  about_points: [
    'Over 100 active clients and more than 5,000 reports delivered.',
    defaultLocationPoint(DEFAULT_CITY),
    'Every report is reviewed by an analyst who knows the local market.',
  ],
  services_intro: 'Single family, multifamily, commercial or land: we cover the property types investors buy.',
  services: [
    {
      title: 'Deal underwriting',
      text: 'Purchase price, rents, expenses, financing and returns, stress-tested so you know where the deal breaks.',
    },
    {
      title: 'Market and comparables analysis',
      text: 'Recent sales, rental comps and neighborhood trends gathered and checked by local experts.',
    },
    {
      title: 'Property risk review',
      text: 'Zoning, permits, taxes, flood zones and other red flags that belong in your decision, not your surprises.',
    },
    {
      title: 'Custom investor reports',
      text: 'Reports shaped around your strategy, from fix-and-flip to buy-and-hold, ready to share with partners and lenders.',
    },
  ],
  steps_intro: 'Three steps from address to decision.',
  steps: [
    'Send us the property and your plans through the form below. It takes two minutes.',
    'Within 24 hours you receive a detailed report, reviewed by a local expert.',
    'Make your offer knowing the numbers, the risks and the market behind them.',
  ],
  why_intro: 'Speed and depth, without trading one for the other.',
  reasons: [
    {
      title: 'U.S.-Based Analysts',
      text: 'Your deal is handled by experienced analysts in the United States, not an offshore call center.',
    },
    { title: 'Fast Turnaround', text: 'Reports within 24 hours, so you can make offers while the deal is still on the table.' },
    { title: 'All 50 States', text: 'Coverage in every state, backed by local experts who know each market.' },
    { title: 'Custom Reports', text: 'Custom investor reports that answer the questions your strategy and your lenders ask.' },
  ],
  contact_intro: 'Tell us about your deal and we will get back to you within one business day. Your first deal analysis is free.',
  form_note: 'Your first deal analysis is free. No obligation.',
  tagline: 'Real estate due diligence and underwriting for investors, with reports within 24 hours in all 50 states.',
  city: DEFAULT_CITY,
  address: '123 Main Street, Frederick, MD 21701',
};

/**
 * The whole default content: the brand and contact from the environment (the legal name is the
 * brand), the firm's words from DEFAULT_WEBSITE_CONTENT; `city`, when given, is the one saved
 * before the About points were editable, which their location point keeps naming.
 */
export function defaultWebsiteContent(siteName: string, contact: Omit<SiteDefaults, 'name'> = DEFAULT_SITE, city?: string): WebsiteContent {
  const content: WebsiteContent = {
    ...DEFAULT_WEBSITE_CONTENT,
    site_name: siteName,
    email: contact.email,
    phone: contact.phone,
    legal_entity: siteName,
  };
  if (city !== undefined) content.about_points = content.about_points.map((p, i) => (i === 1 ? defaultLocationPoint(city) : p));
  return content;
}

/** The home page's <title>: the brand, then the words the firm chose. */
export const landingTitle = (brand: string, pageTitle: string) => `${brand} | ${pageTitle}`;

/** The phone as a tel: link wants it: its digits and a leading +. */
export const phoneTel = (phone: string) => phone.replace(/[^\d+]/g, '');

/**
 * Each text of the content with the name of its placeholder token (`%%NAME%%`): the prerender
 * renders placeholderWebsiteContent()'s tokens, the server fills in `websiteTokens(saved)`'s values.
 * The brand and contact keep the token names they had when they came from the environment.
 */
export function websiteTokens(content: WebsiteContent): [string, string][] {
  const list = (prefix: string, items: string[]) => items.map((text, i): [string, string] => [`${prefix}${i}`, text]);
  const pairs = <K extends string>(prefix: string, items: Record<K, string>[], keys: [K, string][]) =>
    items.flatMap((item, i) => keys.map(([key, suffix]): [string, string] => [`${prefix}${i}_${suffix}`, item[key]]));
  return [
    ['SITE_NAME', content.site_name],
    ['SITE_EMAIL', content.email],
    ['SITE_PHONE', content.phone],
    ['SITE_PHONE_TEL', phoneTel(content.phone)],
    ['W_PAGE_TITLE', content.page_title],
    ['W_META_DESCRIPTION', content.meta_description],
    ['W_HERO_BADGE', content.hero_badge],
    ['W_HEADLINE', content.headline],
    ['W_SUBHEADLINE', content.subheadline],
    ...list('W_HIGHLIGHT', content.highlights),
    ...pairs('W_STAT', content.stats, [
      ['value', 'VALUE'],
      ['label', 'LABEL'],
    ]),
    ['W_ABOUT_INTRO', content.about_intro],
    ['W_ABOUT_MORE', content.about_more],
    ...list('W_ABOUT_POINT', content.about_points),
    ['W_SERVICES_INTRO', content.services_intro],
    ...pairs('W_SERVICE', content.services, [
      ['title', 'TITLE'],
      ['text', 'TEXT'],
    ]),
    ['W_STEPS_INTRO', content.steps_intro],
    ...list('W_STEP', content.steps),
    ['W_WHY_INTRO', content.why_intro],
    ...pairs('W_REASON', content.reasons, [
      ['title', 'TITLE'],
      ['text', 'TEXT'],
    ]),
    ['W_CONTACT_INTRO', content.contact_intro],
    ['W_FORM_NOTE', content.form_note],
    ['W_TAGLINE', content.tagline],
    ['W_CITY', content.city],
    ['W_ADDRESS', content.address],
    ['W_ENTITY', content.legal_entity],
  ];
}

/**
 * The parts of a page that are there only when the content has them (the figures under the
 * headline: one to four): the prerender wraps each in `%%IF_<NAME>%%…%%FI_<NAME>%%`, and the
 * server keeps the parts `websiteOptionalParts` names and drops the others.
 */
export const statPartName = (index: number) => `W_STAT${index}`;
export const websiteOptionalParts = (content: WebsiteContent): Set<string> => new Set(content.stats.map((_, i) => statPartName(i)));

const token = (name: string) => `%%${name}%%`;

/** The content the prerender renders: every text its token (a function, so the browser bundle leaves it out). */
export function placeholderWebsiteContent(): WebsiteContent {
  const tokens = Object.fromEntries(websiteTokens(placeholderShape()).map(([name]) => [name, token(name)]));
  const list = (prefix: string, length: number) => Array.from({ length }, (_, i) => tokens[`${prefix}${i}`]!);
  const pair = <A extends string, B extends string>(prefix: string, length: number, [a, sa]: [A, string], [b, sb]: [B, string]) =>
    Array.from(
      { length },
      (_, i) => ({ [a]: tokens[`${prefix}${i}_${sa}`]!, [b]: tokens[`${prefix}${i}_${sb}`]! }) as Record<A | B, string>,
    );
  return {
    site_name: tokens.SITE_NAME!,
    email: tokens.SITE_EMAIL!,
    phone: tokens.SITE_PHONE!,
    page_title: tokens.W_PAGE_TITLE!,
    meta_description: tokens.W_META_DESCRIPTION!,
    hero_badge: tokens.W_HERO_BADGE!,
    headline: tokens.W_HEADLINE!,
    subheadline: tokens.W_SUBHEADLINE!,
    highlights: list('W_HIGHLIGHT', WEBSITE_HIGHLIGHTS),
    stats: pair('W_STAT', WEBSITE_STATS, ['value', 'VALUE'], ['label', 'LABEL']),
    about_intro: tokens.W_ABOUT_INTRO!,
    about_more: tokens.W_ABOUT_MORE!,
    about_points: list('W_ABOUT_POINT', WEBSITE_ABOUT_POINTS),
    services_intro: tokens.W_SERVICES_INTRO!,
    services: pair('W_SERVICE', WEBSITE_SERVICES, ['title', 'TITLE'], ['text', 'TEXT']),
    steps_intro: tokens.W_STEPS_INTRO!,
    steps: list('W_STEP', WEBSITE_STEPS),
    why_intro: tokens.W_WHY_INTRO!,
    reasons: pair('W_REASON', WEBSITE_REASONS, ['title', 'TITLE'], ['text', 'TEXT']),
    contact_intro: tokens.W_CONTACT_INTRO!,
    form_note: tokens.W_FORM_NOTE!,
    tagline: tokens.W_TAGLINE!,
    city: tokens.W_CITY!,
    address: tokens.W_ADDRESS!,
    legal_entity: tokens.W_ENTITY!,
  };
}

/** Content of the longest shape (every list full), for naming every token. */
function placeholderShape(): WebsiteContent {
  const c = defaultWebsiteContent(DEFAULT_SITE.name);
  return { ...c, stats: Array.from({ length: WEBSITE_STATS }, () => ({ value: '', label: '' })) };
}

/** Whether a value read from the page (the JSON block) has the content's shape. */
export function isWebsiteContent(value: unknown): value is WebsiteContent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const strings = (o: unknown, keys: string[]) =>
    typeof o === 'object' && o !== null && keys.every((k) => typeof (o as Record<string, unknown>)[k] === 'string');
  const listOf = (items: unknown, min: number, max: number, ok: (item: unknown) => boolean) =>
    Array.isArray(items) && items.length >= min && items.length <= max && items.every(ok);
  const text = (item: unknown) => typeof item === 'string';
  const card = (item: unknown) => strings(item, ['title', 'text']);
  return (
    strings(v, [
      'site_name',
      'email',
      'phone',
      'page_title',
      'meta_description',
      'hero_badge',
      'headline',
      'subheadline',
      'about_intro',
      'about_more',
    ]) &&
    strings(v, [
      'services_intro',
      'steps_intro',
      'why_intro',
      'contact_intro',
      'form_note',
      'tagline',
      'city',
      'address',
      'legal_entity',
    ]) &&
    listOf(v.highlights, WEBSITE_HIGHLIGHTS, WEBSITE_HIGHLIGHTS, text) &&
    listOf(v.stats, WEBSITE_STATS_MIN, WEBSITE_STATS, (s) => strings(s, ['value', 'label'])) &&
    listOf(v.about_points, WEBSITE_ABOUT_POINTS, WEBSITE_ABOUT_POINTS, text) &&
    listOf(v.services, WEBSITE_SERVICES, WEBSITE_SERVICES, card) &&
    listOf(v.steps, WEBSITE_STEPS, WEBSITE_STEPS, text) &&
    listOf(v.reasons, WEBSITE_REASONS, WEBSITE_REASONS, card)
  );
}
