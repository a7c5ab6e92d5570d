import { describe, expect, it } from 'vitest';
import { firstNonPublic, isAllowedHost, isPublicAddress, parseAllowHosts, type AllowedHost } from './address-policy.ts';

// Pure: nothing here looks a name up or opens a connection.

describe('isPublicAddress', () => {
  it.each([
    ['0.0.0.0', 'this host'],
    ['0.1.2.3', '"this network"'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.20.10.5', 'private 172.16/12'],
    ['172.31.255.254', 'private 172.16/12'],
    ['192.168.0.1', 'private 192.168/16'],
    ['192.168.255.255', 'private 192.168/16'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['192.0.0.8', 'protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.88.99.1', '6to4 relay'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback written out'],
    ['fe80::1', 'link-local'],
    ['FE80::ABCD', 'link-local, upper case'],
    ['febf::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fec0::1', 'site-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456:789a::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::FFFF:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:a00:1', 'IPv4-mapped private, hex'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'IPv4-mapped 192.168.1.1, written out'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::8.8.8.8', 'IPv4-compatible (obsolete), even of a public address'],
    ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback, hex'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:a00:1::', '6to4 of 10.0.0.1'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2001:db8::1', 'documentation'],
    ['2001:db8:ffff::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['100::1', 'discard'],
    ['5f00::1', 'segment routing'],
    ['localhost', 'a name'],
    ['', 'nothing'],
    ['10.0.0', 'not an address'],
    ['0177.0.0.1', 'octal, which a lookup could read as 127.0.0.1'],
    ['2130706433', '127.0.0.1 as one number'],
    ['[::1]', 'brackets'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '9.9.9.9',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.1',
    '192.167.255.255',
    '192.169.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '11.0.0.1',
    '126.255.255.255',
    '128.0.0.1',
    '198.17.255.255',
    '198.20.0.1',
    '223.255.255.255',
    '2606:4700::1111',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '2001:200::1',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '64:ff9b::101:101',
    '2002:808:808::1',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('firstNonPublic', () => {
  it('names the first address that is not public, so one private address among public ones refuses the name', () => {
    expect(firstNonPublic(['8.8.8.8', '2606:4700::1111'])).toBeUndefined();
    expect(firstNonPublic(['8.8.8.8', '10.0.0.1', '127.0.0.1'])).toBe('10.0.0.1');
    expect(firstNonPublic(['2606:4700::1111', '::1'])).toBe('::1');
    expect(firstNonPublic([])).toBeUndefined();
  });
});

describe('parseAllowHosts', () => {
  it('reads names, IPv4 and bracketed IPv6 addresses, each with or without a port, as URLs write their hosts', () => {
    expect(parseAllowHosts(' Calendar.Internal , 10.0.0.5:8443,[::1]:8080, [FD00:0:0::5] ,caldav.corp.:443,127.0.0.1')).toEqual([
      { host: 'calendar.internal', port: undefined },
      { host: '10.0.0.5', port: 8443 },
      { host: '[::1]', port: 8080 },
      { host: '[fd00::5]', port: undefined },
      { host: 'caldav.corp', port: 443 },
      { host: '127.0.0.1', port: undefined },
    ]);
    expect(parseAllowHosts('localhost')).toEqual([{ host: 'localhost', port: undefined }]);
  });

  it.each([
    ['::1', '::1'],
    ['fd00::5:8443', 'fd00::5:8443'],
    ['[::1]:', '[::1]:'],
    ['[not-v6]', '[not-v6]'],
    ['host:0', 'host:0'],
    ['host:65536', 'host:65536'],
    ['host:http', 'host:http'],
    ['a,,b', ''],
    ['', ''],
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['*.example.com', '*.example.com'],
    ['https://cal.example.com', 'https://cal.example.com'],
    ['user@host', 'user@host'],
    ['cal example.com', 'cal example.com'],
  ])('refuses %j, naming the entry', (value, entry) => {
    expect(parseAllowHosts(value)).toBe(
      `must be a list of host names or IP addresses, each with an optional port, such as calendar.internal,10.0.0.5:8443,[fd00::5] (not "${entry}")`,
    );
  });
});

describe('isAllowedHost', () => {
  const list = parseAllowHosts('calendar.internal,127.0.0.1:8080,[::1]:8443,[fd00::5]') as AllowedHost[];

  it('lets a host entry match any port and a host:port entry only its port', () => {
    expect(isAllowedHost(list, 'calendar.internal', 443)).toBe(true);
    expect(isAllowedHost(list, 'calendar.internal', 8080)).toBe(true);
    expect(isAllowedHost(list, '127.0.0.1', 8080)).toBe(true);
    expect(isAllowedHost(list, '127.0.0.1', 8081)).toBe(false);
    expect(isAllowedHost(list, '[::1]', 8443)).toBe(true);
    expect(isAllowedHost(list, '[::1]', 443)).toBe(false);
    expect(isAllowedHost(list, '[fd00::5]', 1)).toBe(true);
  });

  it('compares hosts as URLs write them: any case, IPv6 in any spelling, with or without the final dot', () => {
    expect(isAllowedHost(list, 'CALENDAR.Internal', 443)).toBe(true);
    expect(isAllowedHost(list, 'calendar.internal.', 443)).toBe(true);
    expect(isAllowedHost(list, '[0:0:0:0:0:0:0:1]', 8443)).toBe(true);
    expect(isAllowedHost(list, '::1', 8443)).toBe(true);
    expect(isAllowedHost(list, '[FD00:0::5]', 443)).toBe(true);
    expect(isAllowedHost(list, new URL('http://127.0.0.1:8080/').hostname, 8080)).toBe(true);
  });

  it('allows nothing else: not a subdomain, not a neighbour, nothing with an empty list', () => {
    expect(isAllowedHost(list, 'evil.calendar.internal', 443)).toBe(false);
    expect(isAllowedHost(list, 'calendar.internal.evil.test', 443)).toBe(false);
    expect(isAllowedHost(list, '127.0.0.2', 8080)).toBe(false);
    expect(isAllowedHost(list, 'localhost', 8080)).toBe(false);
    expect(isAllowedHost([], 'calendar.internal', 443)).toBe(false);
  });
});
