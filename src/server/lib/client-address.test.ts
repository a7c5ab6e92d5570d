import { describe, expect, it } from 'vitest';
import { clientAddress, networkKey, rateLimitKey, TrustedProxies } from './client-address.ts';

const list = (value: string) => TrustedProxies.parseList(value) as TrustedProxies;

describe('clientAddress', () => {
  it('believes no X-Forwarded-For without TRUST_PROXY', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', TrustedProxies.none)).toEqual({ ip: '203.0.113.9', viaTrustedProxy: false });
    expect(clientAddress('::ffff:203.0.113.9', undefined, TrustedProxies.none)).toEqual({ ip: '203.0.113.9', viaTrustedProxy: false });
  });

  it('takes the last hop with TRUST_PROXY=on', () => {
    expect(clientAddress('10.0.0.2', '1.1.1.1, 198.51.100.1', TrustedProxies.all)).toEqual({ ip: '198.51.100.1', viaTrustedProxy: true });
    expect(clientAddress('10.0.0.2', undefined, TrustedProxies.all)).toEqual({ ip: '10.0.0.2', viaTrustedProxy: true });
  });

  it('answers with the socket address when the forwarded hop is not an IP address', () => {
    for (const forwarded of ["' OR 1=1 --", '198.51.100.1:4711', 'unknown', '1.2.3.4, evil.example', '[2001:db8::1]']) {
      expect(clientAddress('10.0.0.2', forwarded, TrustedProxies.all)).toEqual({
        ip: '10.0.0.2',
        viaTrustedProxy: true,
        badForwardedFor: forwarded.split(',').at(-1)!.trim(),
      });
    }
  });

  it('with a list, believes only a listed peer and takes the right-most hop that is not a listed proxy', () => {
    const trusted = list('10.0.0.0/8,127.0.0.1,fd00::/8');
    // Client -> CDN edge (10.1.1.1) -> our proxy (10.0.0.2) -> us; the client forged a first hop.
    expect(clientAddress('10.0.0.2', '6.6.6.6, 198.51.100.7, 10.1.1.1', trusted)).toEqual({ ip: '198.51.100.7', viaTrustedProxy: true });
    expect(clientAddress('fd00::5', '2001:db8::42', trusted)).toEqual({ ip: '2001:db8::42', viaTrustedProxy: true });
    // Anyone else's X-Forwarded-For is theirs to invent.
    expect(clientAddress('203.0.113.9', '198.51.100.7', trusted)).toEqual({ ip: '203.0.113.9', viaTrustedProxy: false });
    // Every hop is ours: the request started at the first.
    expect(clientAddress('127.0.0.1', '10.0.0.9, 10.0.0.8', trusted)).toEqual({ ip: '10.0.0.9', viaTrustedProxy: true });
    expect(clientAddress('127.0.0.1', '10.0.0.9, not-an-ip, 10.0.0.8', trusted)).toEqual({
      ip: '127.0.0.1',
      viaTrustedProxy: true,
      badForwardedFor: 'not-an-ip',
    });
  });

  it('treats a request without a socket (app.request) as from "unknown"', () => {
    expect(clientAddress(undefined, '198.51.100.1', list('127.0.0.1'))).toEqual({ ip: 'unknown', viaTrustedProxy: false });
  });
});

describe('rateLimitKey', () => {
  it('is the IPv4 address itself', () => {
    expect(rateLimitKey('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    const key = '2001:db8:85a3:8d3::/64';
    for (const ip of [
      '2001:db8:85a3:8d3::1',
      '2001:0db8:85a3:08d3:ffff:ffff:ffff:ffff',
      '2001:DB8:85A3:8D3:1319:8A2E:370:7348',
      '2001:db8:85a3:8d3:0:0:0:1%eth0',
    ]) {
      expect({ ip, key: rateLimitKey(ip) }).toEqual({ ip, key });
    }
    expect(rateLimitKey('2001:db8:85a3:8d4::1')).not.toBe(key);
    expect(rateLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves anything else as it is', () => {
    expect(rateLimitKey('unknown')).toBe('unknown');
  });
});

describe('networkKey', () => {
  it('is the /24 of an IPv4 address (mapped ones too) and the /64 of an IPv6 one', () => {
    expect(networkKey('203.0.113.9')).toBe('203.0.113.0/24');
    expect(networkKey('203.0.113.250')).toBe('203.0.113.0/24');
    expect(networkKey('203.0.114.9')).toBe('203.0.114.0/24');
    expect(networkKey('::ffff:127.0.3.7')).toBe('127.0.3.0/24');
    expect(networkKey('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3:8d3::/64');
    expect(networkKey('2001:db8:85a3:8d3::1')).toBe(networkKey('2001:db8:85a3:8d3:ffff::9'));
    expect(networkKey('unknown')).toBe('unknown');
  });
});
