import { describe, expect, it } from 'vitest';
import { newReplyToken, replyAddressParts, replyTokensIn } from './reply-token.ts';

describe('the lead’s reply address', () => {
  it('makes tokens of ten lower-case letters and digits, new each time', () => {
    const tokens = new Set(Array.from({ length: 50 }, newReplyToken));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[a-z0-9]{10}$/);
  });

  it('puts the token between the reply address’s local part and its domain', () => {
    expect(replyAddressParts({ name: 'Replies', address: 'replies@keystone.test' })).toEqual(['replies', '@keystone.test']);
    expect(replyAddressParts(undefined)).toEqual([null, null]);
  });

  it('finds the lead’s token in the reply address, whatever its case, and nowhere else', () => {
    const replyTo = { name: '', address: 'replies@keystone.test' };
    expect(
      replyTokensIn(['replies+k3x9abcd12@keystone.test', 'other+zzzzzzzz@keystone.test', 'replies+ab@keystone.test'], replyTo),
    ).toEqual(['k3x9abcd12']);
    expect(replyTokensIn(['replies+k3x9abcd12@keystone.test'], undefined)).toEqual([]);
  });
});
