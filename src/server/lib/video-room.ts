import { randomBytes } from 'node:crypto';

/**
 * A Jitsi Meet room of its own for one call, on meet.jit.si: the name is the only key to a
 * Jitsi room, so it carries 120 random bits (24 base32 characters) nobody can guess.
 */
export function jitsiRoom(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(24);
  let name = '';
  for (const byte of bytes) name += alphabet[byte & 31];
  return `https://meet.jit.si/call-${name}`;
}
