import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The lead form's token: proof of when the server handed out a form, so the time a visitor
 * took is measured by the server's clock, not claimed by the browser.
 *
 * A token is base64url of 8 bytes of issue time (milliseconds since the epoch, big-endian),
 * 16 random bytes (so no two tokens are alike) and the HMAC-SHA256 of those 24 bytes under
 * the server's secret. Nothing is stored per token: any process holding the secret reads any
 * token.
 */

/** A token older than this is refused; the browser fetches a fresh one before that (24 hours). */
export const FORM_TOKEN_MAX_AGE_SECONDS = 24 * 60 * 60;

const TIME_BYTES = 8;
const NONCE_BYTES = 16;
const MAC_BYTES = 32;
const SIGNED_BYTES = TIME_BYTES + NONCE_BYTES;
const TOKEN_BYTES = SIGNED_BYTES + MAC_BYTES;
/** The length of every token's text (75 characters). */
export const FORM_TOKEN_LENGTH = Math.ceil((TOKEN_BYTES * 4) / 3);
// Another use of the same secret can never produce a valid form token.
const PURPOSE = 'lead-form-token:v1:';

const macOf = (secret: Uint8Array, signed: Uint8Array) => createHmac('sha256', secret).update(PURPOSE).update(signed).digest();

/** A token issued at `issuedAtMs`, signed with `secret`. */
export function signFormToken(secret: Uint8Array, issuedAtMs: number, nonce: Uint8Array = randomBytes(NONCE_BYTES)): string {
  if (nonce.length !== NONCE_BYTES) throw new Error(`a form token's nonce is ${NONCE_BYTES} bytes`);
  const signed = Buffer.alloc(SIGNED_BYTES);
  signed.writeBigUInt64BE(BigInt(Math.max(0, Math.floor(issuedAtMs))), 0);
  signed.set(nonce, TIME_BYTES);
  return Buffer.concat([signed, macOf(secret, signed)]).toString('base64url');
}

/** When the token was issued (ms since the epoch), or undefined if it is not one `secret` signed. */
export function readFormToken(secret: Uint8Array, token: string): number | undefined {
  if (token.length !== FORM_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== TOKEN_BYTES) return undefined;
  const signed = bytes.subarray(0, SIGNED_BYTES);
  if (!timingSafeEqual(bytes.subarray(SIGNED_BYTES), macOf(secret, signed))) return undefined;
  return Number(signed.readBigUInt64BE(0));
}

export type FormTokenVerdict =
  /** Signed by us, within its life: `ageMs` says how long ago it was handed out. */
  | { ok: true; ageMs: number }
  /** Absent, not ours (forged, tampered, another secret) or past FORM_TOKEN_MAX_AGE_SECONDS. */
  | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

/** What a submitted token proves at `nowMs`. */
export function checkFormToken(secret: Uint8Array, token: string | undefined, nowMs: number): FormTokenVerdict {
  if (token === undefined || token === '') return { ok: false, reason: 'missing' };
  const issuedAt = readFormToken(secret, token);
  if (issuedAt === undefined) return { ok: false, reason: 'invalid' };
  const ageMs = nowMs - issuedAt;
  if (ageMs > FORM_TOKEN_MAX_AGE_SECONDS * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, ageMs };
}
