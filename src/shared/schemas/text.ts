import * as z from 'zod';
import { NUL_MESSAGE } from '../rules/lead-fields.ts';
import type { TextRule } from '../rules/text.ts';

export { NUL_MESSAGE };

/** PostgreSQL cannot store the NUL character in text: refused as bad input, not a 500. */
export const noNul = (s: string) => !s.includes('\u0000');

/**
 * The zod schema of a text rule (rules/text.ts), with its checks in the order checkText
 * applies them, so the server answers with the message the browser showed.
 */
export function zodText(rule: TextRule) {
  let schema = rule.required ? z.string({ error: rule.required }) : z.string();
  if (rule.trim !== false) schema = schema.trim();
  if (rule.required) schema = schema.min(1, { message: rule.required, abort: true });
  if (rule.min) schema = schema.min(rule.min.length, rule.min.message);
  schema = schema.max(rule.max.length, rule.max.message);
  if (rule.pattern) schema = schema.regex(rule.pattern.regex, rule.pattern.message);
  if (rule.noNul) schema = schema.refine(noNul, rule.noNul);
  if (rule.lowerCase) schema = schema.toLowerCase();
  return schema;
}
