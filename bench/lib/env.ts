/** A whole number from the environment variable `name`, `fallback` when unset; throws outside min..max. */
export function envInt(name: string, fallback: number, min: number, max: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  return n;
}
