import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashToken, mintToken, newSecretToken } from './secret-token.ts';

describe('secret tokens', () => {
  it('are 32 random bytes as base64url: 43 URL-safe characters, never the same twice', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newSecretToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('are stored as their SHA-256 in hex, and a minted token comes with its hash', () => {
    expect(hashToken('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
    const { token, hash } = mintToken();
    expect(hash).toBe(hashToken(token));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
