import { createHash, randomBytes } from 'node:crypto';

/**
 * The secrets we put in URLs and cookies (sessions, booking links, invitations, password
 * resets, sign-in challenges, remembered devices, calendar feeds, the first-run link) and the
 * keys the server makes for itself: 32 random bytes (256 bits, far past guessing), base64url so
 * they travel in a URL unescaped. The database keeps only `hashToken` of a token: a leaked
 * table opens nothing. A plain SHA-256 is enough (no salt, no stretching): the input is random,
 * not a password.
 */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');

/** SHA-256 of a token, as hex: what the database stores and looks tokens up by. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new token and its hash. */
export function mintToken(): { token: string; hash: string } {
  const token = newSecretToken();
  return { token, hash: hashToken(token) };
}
