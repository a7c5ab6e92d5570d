/**
 * Amounts of money as people type and read them (dollars) and as the API keeps them (whole
 * cents, so sums are exact): "$12,500" is 1_250_000 cents.
 */
const whole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const withCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** Cents as dollars: "$12,500", or "$12,500.50" when there are cents. */
export function formatCents(cents: number): string {
  return cents % 100 === 0 ? whole.format(cents / 100) : withCents.format(cents / 100);
}

/** Cents as the dollars an input shows to edit ("12500", "12500.50"); '' for none. */
export function centsToInput(cents: number | null): string {
  if (cents === null) return '';
  const dollars = Math.trunc(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? String(dollars) : `${dollars}.${String(rest).padStart(2, '0')}`;
}

// Digits with optional thousands commas ("12,500") or none ("12500"), then up to two decimals.
const DOLLARS = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{0,2}))?$/;

/**
 * What a person typed as dollars, in cents: null for an empty input, undefined when it is not
 * an amount ("abc", "-5", "1.234"). Counted in integers, never through floating point.
 */
export function parseDollars(input: string): number | null | undefined {
  const text = input.trim();
  if (text === '') return null;
  const match = DOLLARS.exec(text);
  if (!match) return undefined;
  const dollars = Number(match[1]!.replace(/,/g, ''));
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  const total = dollars * 100 + cents;
  return Number.isSafeInteger(total) ? total : undefined;
}
