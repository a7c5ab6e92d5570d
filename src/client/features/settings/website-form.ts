import { checkText, type TextRule } from '#shared/rules/text';
import { WEBSITE_RULES } from '#shared/rules/website';
import type { WebsiteContent } from '#shared/website-content';

/** Field keys of the form's messages: `headline`, `stats.2.label`, `services.0.text`... */
export type WebsiteErrors = Record<string, string>;

/** Checks every field with the rules the server applies; the cleaned content, or a message per field. */
export function checkWebsiteForm(values: WebsiteContent): { content: WebsiteContent; errors?: undefined } | { errors: WebsiteErrors } {
  const errors: WebsiteErrors = {};
  const check = (key: string, value: string, rule: TextRule) => {
    const result = checkText(value, rule);
    if (!result.ok) errors[key] = result.error;
    return result.ok ? (result.value ?? '') : value;
  };
  const content: WebsiteContent = {
    headline: check('headline', values.headline, WEBSITE_RULES.headline),
    subheadline: check('subheadline', values.subheadline, WEBSITE_RULES.subheadline),
    stats: values.stats.map((s, i) => ({ value: check(`stats.${i}.value`, s.value, WEBSITE_RULES.statValue), label: check(`stats.${i}.label`, s.label, WEBSITE_RULES.statLabel) })),
    services: values.services.map((s, i) => ({ title: check(`services.${i}.title`, s.title, WEBSITE_RULES.serviceTitle), text: check(`services.${i}.text`, s.text, WEBSITE_RULES.serviceText) })),
    city: check('city', values.city, WEBSITE_RULES.city),
    address: check('address', values.address, WEBSITE_RULES.address),
    legal_entity: check('legal_entity', values.legal_entity, WEBSITE_RULES.legalEntity),
  };
  return Object.keys(errors).length > 0 ? { errors } : { content };
}
