import { DEFAULT_WEBSITE_CONTENT, isWebsiteContent, placeholderWebsiteContent, type WebsiteContent } from '#shared/website-content';

/**
 * Site name, email and phone come from the server's environment (SITE_NAME, SITE_EMAIL,
 * SITE_PHONE), the firm's words from Settings → Website (the database), and the year from the
 * clock, but the public pages are prerendered at build time. So the prerender writes
 * placeholder tokens that the server fills in at start-up and again at each save, and the
 * browser reads the same values from the JSON block below before hydrating, so both trees match.
 */
export type SiteConfig = {
  name: string;
  email: string;
  phone: string;
  /** The phone as used in a tel: link, e.g. +13015550100. */
  phoneTel: string;
  /** The current year, for the copyright line. */
  year: string;
  website: WebsiteContent;
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
  website: placeholderWebsiteContent(),
};

/** Used in dev (no server substitution) and whenever the JSON block does not parse. */
export const DEFAULT_SITE_CONFIG: SiteConfig = {
  name: 'Keystone Due Diligence',
  email: 'info@example.com',
  phone: '(301) 555-0100',
  phoneTel: '+13015550100',
  year: String(new Date().getFullYear()),
  website: { ...DEFAULT_WEBSITE_CONTENT, legal_entity: 'Keystone Due Diligence' },
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
