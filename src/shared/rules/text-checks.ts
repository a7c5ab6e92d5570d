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
  /** The message for a NUL character (default NUL_MESSAGE); every text is checked by storableTextError. */
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

export const NUL_MESSAGE = 'Contains a character that is not allowed';
export const UNSTORABLE_MESSAGE = 'Contains characters that cannot be stored.';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * Well-formed UTF-16: no lone surrogate. "/x\ud800" and "/x\udbff" differ in JavaScript but
 * both become U+FFFD in UTF-8, so the database would see one value where Node saw two.
 * String.prototype.isWellFormed where the engine has it (Node 20, browsers since 2023).
 */
export const isWellFormed = (text: string): boolean => (nativeIsWellFormed ? nativeIsWellFormed.call(text) : !LONE_SURROGATE.test(text));

/**
 * Why a text cannot be stored, or undefined when it can: PostgreSQL refuses NUL in text,
 * and a lone surrogate has no UTF-8 encoding. Every text the API accepts passes this
 * (schemas/text.ts, storableText), and the browser's checkText applies it too.
 */
export function storableTextError(text: string, nulMessage = NUL_MESSAGE): string | undefined {
  if (text.includes('\u0000')) return nulMessage;
  if (!isWellFormed(text)) return UNSTORABLE_MESSAGE;
  return undefined;
}

export type TextCheck = { ok: true; value: string | null | undefined } | { ok: false; error: string };

/** A form's text against its rule: the cleaned value, or the first message that applies. */
export function checkText(input: string | null | undefined, rule: TextRule): TextCheck {
  if (input === undefined || input === null) return rule.required ? { ok: false, error: rule.required } : { ok: true, value: input };
  const text = rule.trim === false ? input : input.trim();
  if (rule.required && text.length === 0) return { ok: false, error: rule.required };
  const unstorable = storableTextError(text, rule.noNul);
  if (unstorable) return { ok: false, error: unstorable };
  const length = characterCount(text);
  if (rule.min && length < rule.min.length) return { ok: false, error: rule.min.message };
  if (length > rule.max.length) return { ok: false, error: rule.max.message };
  if (rule.pattern && !rule.pattern.regex.test(text)) return { ok: false, error: rule.pattern.message };
  return { ok: true, value: rule.lowerCase ? text.toLowerCase() : text };
}
