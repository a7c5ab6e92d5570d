import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.ts';
import { networkKey } from '../lib/client-address.ts';
import { NETWORK_INVALID, parseNetwork, requireNetwork } from './booking-network.ts';

describe('parseNetwork', () => {
  it('reads an address or its network as the key bookings were stored with', () => {
    expect(parseNetwork('203.0.113.7')).toBe(networkKey('203.0.113.7'));
    expect(parseNetwork(' 203.0.113.0/24 ')).toBe(networkKey('203.0.113.99'));
    expect(parseNetwork('2001:db8:1:2::/64')).toBe(networkKey('2001:db8:1:2:abcd::1'));
    expect(parseNetwork('2001:0db8:0001:0002:0000:0000:0000:0000/64')).toBe(parseNetwork('2001:db8:1:2::/64'));
  });

  it('is undefined for anything else: another prefix, not an address, two slashes', () => {
    for (const text of ['203.0.113.0/16', '2001:db8::/48', 'example.com', '203.0.113', '203.0.113.0/24/1', ''])
      expect(parseNetwork(text)).toBeUndefined();
  });
});

describe('requireNetwork', () => {
  it('is none for nothing typed, the key for a network, 400 on the field otherwise', () => {
    expect(requireNetwork(undefined)).toBeUndefined();
    expect(requireNetwork('')).toBeUndefined();
    expect(requireNetwork('203.0.113.7')).toBe(networkKey('203.0.113.7'));
    try {
      requireNetwork('somewhere');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).fields).toEqual({ network: NETWORK_INVALID });
      expect((error as AppError).status).toBe(400);
    }
  });
});
