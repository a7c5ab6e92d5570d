import { LIMITS } from '../constants.ts';
import { EMAIL_PATTERN } from './lead-fields.ts';
import type { TextRule } from './text-checks.ts';
import { WEBSITE_STATS } from '../website-content.ts';

/** The rules of Settings → Website's fields, for the browser's form and the server's schema (schemas/website.ts). */
const text = (label: string, max: number): TextRule => ({
  required: `${label} is required`,
  max: { length: max, message: `${label} must be at most ${max} characters` },
});

/**
 * A phone number people can dial from the page (its tel: link keeps the digits and a leading +):
 * 7 to 15 digits (E.164's most), with spaces, dots, dashes and brackets between them.
 */
export const SITE_PHONE_PATTERN = /^(?=(?:\D*\d){7,15}\D*$)\+?[\d\s().-]+$/;

export const WEBSITE_RULES = {
  siteName: text('Brand name', 100),
  email: {
    required: 'Email is required',
    max: { length: LIMITS.email, message: `Email must be at most ${LIMITS.email} characters` },
    pattern: { regex: EMAIL_PATTERN, message: 'Invalid email address' },
  },
  phone: {
    required: 'Phone number is required',
    max: { length: LIMITS.phone, message: `Phone number must be at most ${LIMITS.phone} characters` },
    pattern: { regex: SITE_PHONE_PATTERN, message: 'Invalid phone number: use 7 to 15 digits, like (301) 555-0100' },
  },
  pageTitle: text('Page title', 120),
  metaDescription: text('Description', 300),
  heroBadge: text('Badge', 60),
  headline: text('Headline', 120),
  subheadline: text('Subheadline', 300),
  highlight: text('Highlight', 120),
  statValue: text('Figure', 12),
  statLabel: text('Label', 40),
  paragraph: text('Paragraph', 600),
  point: text('Point', 200),
  intro: text('Introduction', 300),
  serviceTitle: text('Title', 80),
  serviceText: text('Description', 300),
  stepText: text('Step', 300),
  reasonTitle: text('Title', 60),
  reasonText: text('Description', 300),
  formNote: text('Note', 160),
  tagline: text('Tagline', 200),
  city: text('City', 80),
  address: text('Address', 160),
  legalEntity: text('Legal name', 120),
} satisfies Record<string, TextRule>;

/** The figures' count (docs/product-rules.md, "Pages"): what the form and the server say outside it. */
export const WEBSITE_STATS_MESSAGES = { tooFew: 'Keep at least one figure', tooMany: `At most ${WEBSITE_STATS} figures` } as const;
