/**
 * Phone search by digits (docs/product-rules.md, "Leads"): a lead stored as "(410) 555-0142"
 * is found from "410-555-0142", "4105550142", "+1 410 555 0142" or "555-0142". The database
 * keeps each phone's digits in `leads.phone_digits` (a generated column with a trigram index);
 * this is the search's side of the match.
 */

/** The fewest digits a search matches by: fewer would match most phones (every one holds a "5"). */
export const MIN_PHONE_SEARCH_DIGITS = 4;

/** Only what people type into a phone number: digits, spaces and + ( ) - . / */
const PHONE_LIKE = /^[\d\s+().\-/]+$/;

/**
 * The digits to look for inside `leads.phone_digits`, or null when the search is not a phone
 * number (letters, an email's "lead1234@", fewer than MIN_PHONE_SEARCH_DIGITS digits), which
 * then matches phones only as typed. The US country code is dropped: "+1 410 …" and an
 * 11-digit "1 410 …" look for the 10-digit number, which a stored "+1 (410) …" contains too.
 */
export function phoneSearchDigits(search: string): string | null {
  const text = search.trim();
  if (!PHONE_LIKE.test(text)) return null;
  let digits = text.replace(/\D/g, '');
  if (text.startsWith('+1') || (digits.length === 11 && digits.startsWith('1'))) digits = digits.slice(1);
  return digits.length >= MIN_PHONE_SEARCH_DIGITS ? digits : null;
}
