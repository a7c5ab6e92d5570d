import { channel } from 'node:diagnostics_channel';
import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's minimum parameters: 19 MiB memory, 2 iterations, 1 lane.
// https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Told of every hash, before it starts: the costly step a made-up token or a wrong link must
 * never reach (routes check the token first; src/server/routes/link-before-hash.api.test.ts
 * counts the hashes here). Nothing is published unless something listens.
 */
export const PASSWORD_HASH_CHANNEL = 'crm:password-hash';
const passwordHashes = channel(PASSWORD_HASH_CHANNEL);

export function hashPassword(password: string): Promise<string> {
  if (passwordHashes.hasSubscribers) passwordHashes.publish(undefined);
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // a malformed stored hash verifies nothing
  }
}
