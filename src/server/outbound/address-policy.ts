import { isIP } from 'node:net';

/**
 * Which addresses a request for a URL someone typed may reach. The server sits inside a
 * network (a cloud's metadata service, the database, an admin panel on 10.x) that nobody on
 * the internet should be able to reach through it, so only public unicast addresses are
 * reached, unless an administrator names a host in OUTBOUND_ALLOW_HOSTS.
 * Pure: no lookups, no connections.
 */

type Range = { base: bigint; bits: number };

/** IPv4 ranges that are not public unicast: what each one is, beside it. */
const IPV4_NOT_PUBLIC: readonly Range[] = [
  '0.0.0.0/8', // "this network": 0.0.0.0 reaches this machine
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT: the provider's side, not the internet
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, where clouds answer metadata (169.254.169.254) with credentials
  '172.16.0.0/12', // private
  '192.0.0.0/24', // protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // retired 6to4 relays
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, with 255.255.255.255 (broadcast)
].map((cidr) => range(cidr, 4));

/**
 * IPv6: only global unicast (2000::/3) is public, which leaves out loopback, ::, link-local
 * (fe80::/10), unique-local (fc00::/7), site-local and multicast at once. Inside it, these are not.
 */
const IPV6_GLOBAL = range('2000::/3', 6);
const IPV6_NOT_PUBLIC: readonly Range[] = [
  '2001::/23', // protocol assignments, Teredo (2001::/32) among them: it tunnels to any IPv4 address
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
].map((cidr) => range(cidr, 6));

/**
 * IPv6 forms that carry an IPv4 address, which is what the connection reaches: IPv4-mapped
 * (::ffff:10.0.0.1, how a dual-stack socket writes IPv4), NAT64 (64:ff9b::/96, what DNS answers
 * on an IPv6-only network) and 6to4 (2002::/16, the IPv4 address in its second and third groups).
 */
const IPV6_CARRYING_IPV4: readonly { range: Range; shift: bigint }[] = [
  { range: range('::ffff:0:0/96', 6), shift: 0n },
  { range: range('64:ff9b::/96', 6), shift: 0n },
  { range: range('2002::/16', 6), shift: 80n },
];

/** Whether `address` (an IPv4 or IPv6 address) is public unicast; anything that is not an IP address is not. */
export function isPublicAddress(address: string): boolean {
  // A zone (fe80::1%eth0) names a link of this machine: never public.
  if (address.includes('%')) return false;
  const family = isIP(address);
  if (family === 4) return isPublicIpv4(ipv4Value(address));
  if (family !== 6) return false;
  const value = ipv6Value(address);
  for (const carrier of IPV6_CARRYING_IPV4) {
    if (inRange(value, carrier.range, 128)) return isPublicIpv4((value >> carrier.shift) & 0xffff_ffffn);
  }
  return inRange(value, IPV6_GLOBAL, 128) && !IPV6_NOT_PUBLIC.some((r) => inRange(value, r, 128));
}

/**
 * The first of a name's addresses that is not public, or undefined when all are. One is
 * enough to refuse: the name's owner chooses which address a connection gets, and could
 * answer a public one to a check and a private one to the next lookup.
 */
export function firstNonPublic(addresses: readonly string[]): string | undefined {
  return addresses.find((address) => !isPublicAddress(address));
}

function isPublicIpv4(value: bigint): boolean {
  return !IPV4_NOT_PUBLIC.some((r) => inRange(value, r, 32));
}

function range(cidr: string, family: 4 | 6): Range {
  const [address, bits] = cidr.split('/') as [string, string];
  return { base: family === 4 ? ipv4Value(address) : ipv6Value(address), bits: Number(bits) };
}

function inRange(value: bigint, r: Range, width: number): boolean {
  const shift = BigInt(width - r.bits);
  return value >> shift === r.base >> shift;
}

function ipv4Value(address: string): bigint {
  return address.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 address (valid by isIP, without zone) as one 128-bit number. */
function ipv6Value(address: string): bigint {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Value(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/** A host OUTBOUND_ALLOW_HOSTS lets requests reach whatever its addresses: on any port, or on `port` only. */
export type AllowedHost = { host: string; port: number | undefined };

const allowHostsMessage = (entry: string) =>
  `must be a list of host names or IP addresses, each with an optional port, such as calendar.internal,10.0.0.5:8443,[fd00::5] (not "${entry}")`;

/** OUTBOUND_ALLOW_HOSTS (`host` or `host:port`, IPv6 in brackets, comma-separated), or a message saying which entry is wrong. */
export function parseAllowHosts(value: string): AllowedHost[] | string {
  const hosts: AllowedHost[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    const host = parseAllowHost(entry);
    if (host === undefined) return allowHostsMessage(entry);
    hosts.push(host);
  }
  return hosts;
}

/**
 * An IPv6 address needs its brackets even without a port: `fd00::5:8443` is itself an
 * address, so reading a port off its end would allow another host than the one meant.
 */
function parseAllowHost(entry: string): AllowedHost | undefined {
  const match = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(entry);
  if (!match) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  const host = hostKey(match[1]!);
  return host === undefined ? undefined : { host, port };
}

/**
 * A host as a URL's hostname writes it, so an entry and a URL that name one host compare
 * equal: lower case, IPv6 shortened and in brackets, IPv4 in dotted decimal, no final dot.
 * Undefined when it is not a host name or an IP address.
 */
function hostKey(host: string): string | undefined {
  const bracketed = host.startsWith('[') && host.endsWith(']');
  const bare = bracketed ? host.slice(1, -1) : host;
  if (bracketed ? isIP(bare) !== 6 : isIP(bare) !== 6 && !/^[a-z0-9._-]+$/i.test(bare)) return undefined;
  try {
    return new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** Whether OUTBOUND_ALLOW_HOSTS lets a request reach `hostname` (a URL's hostname) on `port`. */
export function isAllowedHost(list: readonly AllowedHost[], hostname: string, port: number): boolean {
  if (list.length === 0) return false;
  const key = hostKey(hostname);
  return key !== undefined && list.some((entry) => entry.host === key && (entry.port === undefined || entry.port === port));
}
