import type { TextRule } from './text.ts';

/** The rules of Settings → Website's fields, for the browser's form and the server's schema (schemas/website.ts). */
const text = (label: string, max: number): TextRule => ({ required: `${label} is required`, max: { length: max, message: `${label} must be at most ${max} characters` } });

export const WEBSITE_RULES = {
  headline: text('Headline', 120),
  subheadline: text('Subheadline', 300),
  statValue: text('Figure', 12),
  statLabel: text('Label', 40),
  serviceTitle: text('Title', 80),
  serviceText: text('Description', 300),
  city: text('City', 80),
  address: text('Address', 160),
  legalEntity: text('Legal name', 120),
} satisfies Record<string, TextRule>;
