import * as z from 'zod';
import { NUL_MESSAGE, UNSTORABLE_MESSAGE, isWellFormed, type TextRule } from '../rules/text-checks.ts';

export { NUL_MESSAGE, UNSTORABLE_MESSAGE };

/** PostgreSQL cannot store the NUL character in text: refused as bad input, not a 500. */
export const noNul = (s: string) => !s.includes('\u0000');

/** The checks of storableText, for a string schema built another way (zodText). */
const withStorableChecks = <S extends z.ZodString>(schema: S, nulMessage = NUL_MESSAGE): S =>
  schema.refine(noNul, nulMessage).refine(isWellFormed, UNSTORABLE_MESSAGE);

/**
 * Every text the API accepts (bodies, queries, path parameters, headers it reads) starts
 * here: a string the database can store, so no NUL and no lone surrogate (two texts that
 * differ only in lone surrogates would be one value in PostgreSQL's UTF-8). The checks come
 * first, so their message wins over a later limit's. docs/security.md, "Text the API accepts".
 */
export const storableText = (params?: { error?: string }) => withStorableChecks(z.string(params));

/**
 * The zod schema of a text rule (rules/text-checks.ts), with its checks in the order checkText
 * applies them, so the server answers with the message the browser showed.
 */
export function zodText(rule: TextRule) {
  let schema = rule.required ? z.string({ error: rule.required }) : z.string();
  if (rule.trim !== false) schema = schema.trim();
  if (rule.required) schema = schema.min(1, { message: rule.required, abort: true });
  schema = withStorableChecks(schema, rule.noNul);
  if (rule.min) schema = schema.min(rule.min.length, rule.min.message);
  schema = schema.max(rule.max.length, rule.max.message);
  if (rule.pattern) schema = schema.regex(rule.pattern.regex, rule.pattern.message);
  if (rule.lowerCase) schema = schema.toLowerCase();
  return schema;
}
