import { createHash, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

/**
 * The key that seals stored credentials (lib/credentials.ts), as CREDENTIALS_KEY, CREDENTIALS_KEY_PREVIOUS
 * and the key files in DATA_DIR write it.
 */

/** 32 bytes that seal stored credentials. Printed, logged or turned into JSON, it shows only its id. */
export class CredentialsKey {
  readonly #bytes: Buffer;
  /** A short hash of the key, written into each sealed value: which key opens it, and nothing about the key. */
  readonly id: string;

  constructor(bytes: Uint8Array) {
    if (bytes.length !== 32) throw new Error('A credentials key is 32 bytes.');
    this.#bytes = Buffer.from(bytes);
    this.id = createHash('sha256').update('credentials-key-id:').update(this.#bytes).digest('hex').slice(0, 8);
  }

  static random(): CredentialsKey {
    return new CredentialsKey(randomBytes(32));
  }

  /** The key as the key file and CREDENTIALS_KEY hold it. */
  toBase64(): string {
    return this.#bytes.toString('base64');
  }

  /** For the cipher only. */
  bytes(): Buffer {
    return this.#bytes;
  }

  toString(): string {
    return `[credentials key ${this.id}]`;
  }

  toJSON(): string {
    return this.toString();
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

export const CREDENTIALS_KEY_FORMAT =
  'must be 32 random bytes written as base64 (44 characters) or hex (64 characters); make one with: openssl rand -base64 32';

/**
 * CREDENTIALS_KEY's text (or the key file's) as a key, or why not. Hex is tried first: 64 hex
 * digits are also valid base64, of 48 bytes. The value itself is never repeated in a message.
 */
export function parseCredentialsKey(text: string): CredentialsKey | string {
  const value = text.trim();
  if (/^[0-9a-f]{64}$/i.test(value)) return new CredentialsKey(Buffer.from(value, 'hex'));
  // base64 or base64url, padded or not: 32 bytes are 43 characters before the padding.
  const unpadded = value.replace(/=+$/, '');
  if (/^[A-Za-z0-9+/_-]{43}$/.test(unpadded) && value.length - unpadded.length <= 1) {
    return new CredentialsKey(Buffer.from(unpadded.replaceAll('-', '+').replaceAll('_', '/'), 'base64'));
  }
  return CREDENTIALS_KEY_FORMAT;
}
