import { checkText, type TextRule } from '#shared/rules/text-checks';
import { WEBSITE_RULES as R, WEBSITE_STATS_MESSAGES } from '#shared/rules/website-checks';
import { WEBSITE_STATS, WEBSITE_STATS_MIN, type WebsiteContent } from '#shared/website-content';

/** Field keys of the form's messages: `headline`, `stats.2.label`, `highlights.0`, `reasons.1.text`... and `stats` for the count. */
export type WebsiteErrors = Record<string, string>;

/** Checks every field with the rules the server applies; the cleaned content, or a message per field. */
export function checkWebsiteForm(values: WebsiteContent): { content: WebsiteContent; errors?: undefined } | { errors: WebsiteErrors } {
  const errors: WebsiteErrors = {};
  const check = (key: string, value: string, rule: TextRule) => {
    const result = checkText(value, rule);
    if (!result.ok) errors[key] = result.error;
    return result.ok ? (result.value ?? '') : value;
  };
  const texts = (key: string, items: string[], rule: TextRule) => items.map((text, i) => check(`${key}.${i}`, text, rule));
  const cards = (key: string, items: { title: string; text: string }[], title: TextRule, text: TextRule) =>
    items.map((card, i) => ({ title: check(`${key}.${i}.title`, card.title, title), text: check(`${key}.${i}.text`, card.text, text) }));
  if (values.stats.length < WEBSITE_STATS_MIN) errors.stats = WEBSITE_STATS_MESSAGES.tooFew;
  if (values.stats.length > WEBSITE_STATS) errors.stats = WEBSITE_STATS_MESSAGES.tooMany;
  const content: WebsiteContent = {
    site_name: check('site_name', values.site_name, R.siteName),
    email: check('email', values.email, R.email),
    phone: check('phone', values.phone, R.phone),
    page_title: check('page_title', values.page_title, R.pageTitle),
    meta_description: check('meta_description', values.meta_description, R.metaDescription),
    hero_badge: check('hero_badge', values.hero_badge, R.heroBadge),
    headline: check('headline', values.headline, R.headline),
    subheadline: check('subheadline', values.subheadline, R.subheadline),
    highlights: texts('highlights', values.highlights, R.highlight),
    stats: values.stats.map((s, i) => ({
      value: check(`stats.${i}.value`, s.value, R.statValue),
      label: check(`stats.${i}.label`, s.label, R.statLabel),
    })),
    about_intro: check('about_intro', values.about_intro, R.paragraph),
    about_more: check('about_more', values.about_more, R.paragraph),
    about_points: texts('about_points', values.about_points, R.point),
    services_intro: check('services_intro', values.services_intro, R.intro),
    services: cards('services', values.services, R.serviceTitle, R.serviceText),
    steps_intro: check('steps_intro', values.steps_intro, R.intro),
    steps: texts('steps', values.steps, R.stepText),
    why_intro: check('why_intro', values.why_intro, R.intro),
    reasons: cards('reasons', values.reasons, R.reasonTitle, R.reasonText),
    contact_intro: check('contact_intro', values.contact_intro, R.intro),
    form_note: check('form_note', values.form_note, R.formNote),
    tagline: check('tagline', values.tagline, R.tagline),
    city: check('city', values.city, R.city),
    address: check('address', values.address, R.address),
    legal_entity: check('legal_entity', values.legal_entity, R.legalEntity),
  };
  return Object.keys(errors).length > 0 ? { errors } : { content };
}
