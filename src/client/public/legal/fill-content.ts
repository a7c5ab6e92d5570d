import type { SiteConfig } from '#client/lib/site-config.ts';

/** Fills `{site}`, `{entity}` (the firm's legal name), `{address}`, `{email}` and `{phone}` into a line of page text. */
export function fillContent(text: string, config: SiteConfig): string {
  return text
    .replaceAll('{site}', config.name)
    .replaceAll('{entity}', config.website.legal_entity)
    .replaceAll('{address}', config.website.address)
    .replaceAll('{email}', config.email)
    .replaceAll('{phone}', config.phone);
}

/** Splits a line at `{email}` so the renderer can put a mailto link there. */
export function splitAtEmail(text: string): string[] {
  return text.split('{email}');
}
