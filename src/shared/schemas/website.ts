import * as z from 'zod';
import { WEBSITE_RULES, WEBSITE_STATS_MESSAGES } from '../rules/website-checks.ts';
import type { TextRule } from '../rules/text-checks.ts';
import { zodText } from './text.ts';
import {
  WEBSITE_ABOUT_POINTS,
  WEBSITE_HIGHLIGHTS,
  WEBSITE_REASONS,
  WEBSITE_SERVICES,
  WEBSITE_STATS,
  WEBSITE_STATS_MIN,
  WEBSITE_STEPS,
  type WebsiteContent,
} from '../website-content.ts';

export { WEBSITE_RULES };
export { DEFAULT_WEBSITE_CONTENT, defaultWebsiteContent, WEBSITE_SERVICES, WEBSITE_STATS } from '../website-content.ts';

const texts = (rule: TextRule, length: number, what: string) => z.array(zodText(rule)).length(length, `Give all ${length} ${what}`);
const cards = (title: TextRule, text: TextRule, length: number, what: string) =>
  z.array(z.object({ title: zodText(title), text: zodText(text) })).length(length, `Give all ${length} ${what}`);

/**
 * What the public website says about the firm, edited in Settings → Website and filled into
 * the prerendered pages at save (no rebuild). The layout, the structure and the product's own
 * texts stay in the code; these are the firm's claims, brand and contact.
 */
export const websiteContentSchema = z
  .object({
    site_name: zodText(WEBSITE_RULES.siteName),
    email: zodText(WEBSITE_RULES.email),
    phone: zodText(WEBSITE_RULES.phone),
    page_title: zodText(WEBSITE_RULES.pageTitle),
    meta_description: zodText(WEBSITE_RULES.metaDescription),
    hero_badge: zodText(WEBSITE_RULES.heroBadge),
    headline: zodText(WEBSITE_RULES.headline),
    subheadline: zodText(WEBSITE_RULES.subheadline),
    highlights: texts(WEBSITE_RULES.highlight, WEBSITE_HIGHLIGHTS, 'highlights'),
    stats: z
      .array(z.object({ value: zodText(WEBSITE_RULES.statValue), label: zodText(WEBSITE_RULES.statLabel) }))
      .min(WEBSITE_STATS_MIN, WEBSITE_STATS_MESSAGES.tooFew)
      .max(WEBSITE_STATS, WEBSITE_STATS_MESSAGES.tooMany),
    about_intro: zodText(WEBSITE_RULES.paragraph),
    about_more: zodText(WEBSITE_RULES.paragraph),
    about_points: texts(WEBSITE_RULES.point, WEBSITE_ABOUT_POINTS, 'points'),
    services_intro: zodText(WEBSITE_RULES.intro),
    services: cards(WEBSITE_RULES.serviceTitle, WEBSITE_RULES.serviceText, WEBSITE_SERVICES, 'services'),
    steps_intro: zodText(WEBSITE_RULES.intro),
    steps: texts(WEBSITE_RULES.stepText, WEBSITE_STEPS, 'steps'),
    why_intro: zodText(WEBSITE_RULES.intro),
    reasons: cards(WEBSITE_RULES.reasonTitle, WEBSITE_RULES.reasonText, WEBSITE_REASONS, 'reasons'),
    contact_intro: zodText(WEBSITE_RULES.intro),
    form_note: zodText(WEBSITE_RULES.formNote),
    tagline: zodText(WEBSITE_RULES.tagline),
    city: zodText(WEBSITE_RULES.city),
    address: zodText(WEBSITE_RULES.address),
    legal_entity: zodText(WEBSITE_RULES.legalEntity),
  })
  .meta({ id: 'WebsiteContent' });
export type { WebsiteContent };
// The schema checks exactly the shape the pages render: this stops compiling if the two part.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const WEBSITE_SCHEMA_MATCHES_TYPE: Same<z.infer<typeof websiteContentSchema>, WebsiteContent> = true;

/** What GET and PUT /api/website answer: the words and when they were last saved (null: never, the defaults). */
export const websiteResponseSchema = websiteContentSchema.extend({ updated_at: z.string().nullable() }).meta({ id: 'WebsiteResponse' });
export type WebsiteResponse = z.infer<typeof websiteResponseSchema>;
