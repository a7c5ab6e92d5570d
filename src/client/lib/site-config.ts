import {
  DEFAULT_SITE,
  defaultWebsiteContent,
  isWebsiteContent,
  phoneTel,
  placeholderWebsiteContent,
  type WebsiteContent,
} from '#shared/website-content';

/**
 * What the site says about the firm comes from Settings → Website (the database; the brand,
 * email and phone from the server's SITE_NAME, SITE_EMAIL and SITE_PHONE until saved) and the
 * year from the clock, but the public pages are prerendered at build time. So the prerender
 * writes placeholder tokens that the server fills in at start-up and again at each save, and
 * the browser reads the same values from the JSON block below before hydrating, so both trees match.
 */
export type SiteConfig = {
  /** The brand, email and phone as shown: the same as website.site_name, .email and .phone. */
  name: string;
  email: string;
  phone: string;
  /** The phone as used in a tel: link, e.g. +13015550100. */
  phoneTel: string;
  /** The current year, for the copyright line. */
  year: string;
  website: WebsiteContent;
  /**
   * Set only while prerendering: the parts the saved content may leave out (a figure under the
   * headline) are marked for the server to keep or drop (see OptionalPart).
   */
  prerender?: true;
};

export const SITE_CONFIG_ELEMENT_ID = 'site-config';

/** The exact block each prerendered page carries; the server fills in the JSON. */
export const SITE_CONFIG_SCRIPT = `<script type="application/json" id="${SITE_CONFIG_ELEMENT_ID}">%%SITE_CONFIG_JSON%%</script>`;

/** What the prerender renders with; the server swaps each token for an HTML-escaped value. */
export const PLACEHOLDER_SITE_CONFIG: SiteConfig = {
  name: '%%SITE_NAME%%',
  email: '%%SITE_EMAIL%%',
  phone: '%%SITE_PHONE%%',
  phoneTel: '%%SITE_PHONE_TEL%%',
  year: '%%YEAR%%',
  website: /* @__PURE__ */ placeholderWebsiteContent(),
  prerender: true,
};

/** Used in dev (no server substitution) and whenever the JSON block does not parse. */
export const DEFAULT_SITE_CONFIG: SiteConfig = {
  name: DEFAULT_SITE.name,
  email: DEFAULT_SITE.email,
  phone: DEFAULT_SITE.phone,
  phoneTel: phoneTel(DEFAULT_SITE.phone),
  year: String(new Date().getFullYear()),
  website: defaultWebsiteContent(DEFAULT_SITE.name),
};

function isSiteConfig(value: unknown): value is SiteConfig {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.name === 'string' &&
    typeof v.email === 'string' &&
    typeof v.phone === 'string' &&
    typeof v.phoneTel === 'string' &&
    typeof v.year === 'string' &&
    isWebsiteContent(v.website)
  );
}

export function parseSiteConfig(text: string | null | undefined): SiteConfig {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return isSiteConfig(value) ? value : DEFAULT_SITE_CONFIG;
  } catch {
    return DEFAULT_SITE_CONFIG;
  }
}

export function readSiteConfig(doc: Document = document): SiteConfig {
  return parseSiteConfig(doc.getElementById(SITE_CONFIG_ELEMENT_ID)?.textContent);
}
