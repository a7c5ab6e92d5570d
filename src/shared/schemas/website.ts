import * as z from 'zod';
import { WEBSITE_RULES } from '../rules/website.ts';
import { zodText } from './text.ts';
import { WEBSITE_SERVICES, WEBSITE_STATS, type WebsiteContent } from '../website-content.ts';

export { WEBSITE_RULES };
export { DEFAULT_WEBSITE_CONTENT, defaultWebsiteContent, WEBSITE_SERVICES, WEBSITE_STATS } from '../website-content.ts';

/**
 * The landing page's and legal pages' words that are the firm's own, edited in Settings →
 * Website and filled into the prerendered pages at save (no rebuild). The layout, the
 * structure and the product's own texts stay in the code; these are the firm's.
 */
export const websiteContentSchema = z.object({
  headline: zodText(WEBSITE_RULES.headline),
  subheadline: zodText(WEBSITE_RULES.subheadline),
  stats: z
    .array(z.object({ value: zodText(WEBSITE_RULES.statValue), label: zodText(WEBSITE_RULES.statLabel) }))
    .length(WEBSITE_STATS, `Give all ${WEBSITE_STATS} figures`),
  services: z
    .array(z.object({ title: zodText(WEBSITE_RULES.serviceTitle), text: zodText(WEBSITE_RULES.serviceText) }))
    .length(WEBSITE_SERVICES, `Give all ${WEBSITE_SERVICES} services`),
  city: zodText(WEBSITE_RULES.city),
  address: zodText(WEBSITE_RULES.address),
  legal_entity: zodText(WEBSITE_RULES.legalEntity),
});
export type { WebsiteContent };
// The schema checks exactly the shape the pages render: this stops compiling if the two part.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const WEBSITE_SCHEMA_MATCHES_TYPE: Same<z.infer<typeof websiteContentSchema>, WebsiteContent> = true;

/** What GET and PUT /api/website answer: the words and when they were last saved (null: never, the defaults). */
export const websiteResponseSchema = websiteContentSchema.extend({ updated_at: z.string().nullable() });
export type WebsiteResponse = z.infer<typeof websiteResponseSchema>;
