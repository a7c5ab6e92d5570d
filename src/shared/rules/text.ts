/**
 * How a text a person types is checked, as data. One rule drives both checkers: `checkText`
 * here, a few hundred bytes for the browser's forms, and `zodText` (schemas/text.ts), which
 * builds the zod schema the server validates with and the API documents. A property test
 * (rules.test.ts) holds the two to the same answer, message for message.
 */
export type TextRule = {
  /** The message when the text is missing, not text, or empty (after trimming). Optional text when absent. */
  required?: string;
  /** Trim surrounding white space before checking (and in what is stored). Default true. */
  trim?: boolean;
  min?: { length: number; message: string };
  max: { length: number; message: string };
  pattern?: { regex: RegExp; message: string };
  /** Refuse NUL (PostgreSQL cannot store it in text) with this message. */
  noNul?: string;
  /** Store it lower-cased (emails). */
  lowerCase?: boolean;
};

/**
 * A text's length in characters (Unicode code points), as zod and PostgreSQL's length()
 * count it: "🏠" is one character, though two UTF-16 units.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export type TextCheck = { ok: true; value: string | null | undefined } | { ok: false; error: string };

/** A form's text against its rule: the cleaned value, or the first message that applies. */
export function checkText(input: string | null | undefined, rule: TextRule): TextCheck {
  if (input === undefined || input === null) return rule.required ? { ok: false, error: rule.required } : { ok: true, value: input };
  const text = rule.trim === false ? input : input.trim();
  if (rule.required && text.length === 0) return { ok: false, error: rule.required };
  const length = characterCount(text);
  if (rule.min && length < rule.min.length) return { ok: false, error: rule.min.message };
  if (length > rule.max.length) return { ok: false, error: rule.max.message };
  if (rule.pattern && !rule.pattern.regex.test(text)) return { ok: false, error: rule.pattern.message };
  if (rule.noNul && text.includes('\u0000')) return { ok: false, error: rule.noNul };
  return { ok: true, value: rule.lowerCase ? text.toLowerCase() : text };
}
