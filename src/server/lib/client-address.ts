import { BlockList, isIP } from 'node:net';

/*
 * Why not proxy-addr: this file's tests, run against proxy-addr 2.0.8 used as it documents
 * (`proxyaddr(req, proxyaddr.compile(list))`, `() => true` for TRUST_PROXY=on), fail on what
 * matters for rate limits and the audit log:
 * - "takes the last hop with TRUST_PROXY=on": it takes the first, which the client writes
 *   itself, so every request could pick a fresh address and a fresh allowance;
 * - "answers with the socket address when the forwarded hop is not an IP address": it answers
 *   `' OR 1=1 --` as the client's address;
 * - "believes no X-Forwarded-For without TRUST_PROXY": it leaves ::ffff:203.0.113.9 as it is,
 *   so one client would be counted under two keys.
 * Matching addresses and ranges, the part it would take over, is Node's own BlockList here.
 */

/**
 * Who is on the other end of a request: the proxies we trust (TRUST_PROXY), the client's
 * address behind them (X-Forwarded-For), and the key its requests are counted under.
 */

/** `::ffff:203.0.113.7` (IPv4 on a dual-stack socket) is 203.0.113.7; anything else unchanged. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/**
 * The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: none (`off`), any
 * peer (`on`), or the peers in a list of addresses and CIDR ranges (`10.0.0.0/8,::1`).
 */
export class TrustedProxies {
  private readonly list: BlockList | undefined;

  private constructor(
    /** 'none', 'all', or the list's entries as written. */
    readonly entries: 'none' | 'all' | readonly string[],
  ) {
    if (typeof entries === 'string') return;
    this.list = new BlockList();
    for (const entry of entries) {
      const [address, prefix] = entry.split('/') as [string, string | undefined];
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.list.addAddress(address, type);
      else this.list.addSubnet(address, Number(prefix), type);
    }
  }

  static readonly none = new TrustedProxies('none');
  static readonly all = new TrustedProxies('all');

  /** A list such as `10.0.0.0/8,127.0.0.1,fd00::/8`, or a message saying which entry is wrong. */
  static parseList(value: string): TrustedProxies | string {
    const entries = value.split(',').map((s) => s.trim());
    for (const entry of entries) {
      const [address = '', prefix, extra] = entry.split('/');
      const family = isIP(address);
      const maxPrefix = family === 6 ? 128 : 32;
      const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
      if (family === 0 || !prefixOk || extra !== undefined) {
        return `must be on, off or a list of proxy addresses and CIDR ranges such as 10.0.0.0/8,127.0.0.1 (not "${entry}")`;
      }
    }
    return new TrustedProxies(entries.map((e) => (e.includes('/') ? e : plainAddress(e))));
  }

  /** Answers of `trusts` for the addresses seen lately: BlockList.check builds a SocketAddress per call. */
  private readonly answers = new Map<string, boolean>();

  /** Whether `address` (the socket's peer, or a hop in X-Forwarded-For) is one of our proxies. */
  trusts(address: string): boolean {
    if (this.entries === 'all') return true;
    if (!this.list) return false;
    let answer = this.answers.get(address);
    if (answer === undefined) {
      const plain = plainAddress(address);
      const family = isIP(plain);
      answer = family !== 0 && this.list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
      if (this.answers.size >= 10_000) this.answers.clear();
      this.answers.set(address, answer);
    }
    return answer;
  }
}

export type ClientAddress = {
  /** The client's IP address, or the socket's peer when there is no usable forwarded one. */
  ip: string;
  /** The peer is a trusted proxy: its X-Forwarded-Proto and X-Forwarded-Host are believed. */
  viaTrustedProxy: boolean;
  /** A trusted proxy sent an X-Forwarded-For whose client hop is not an IP address. */
  badForwardedFor?: string;
};

/**
 * The client behind the socket's `peer`. Only a trusted peer's X-Forwarded-For counts. With
 * `on`, its last hop (appended by our proxy; the hops before it the client could forge);
 * with a list, the right-most hop that is not one of our proxies (every proxy appends the
 * address it was connected from). A hop that is not an IP address is not believed.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, trusted: TrustedProxies): ClientAddress {
  const socketIp = peer === undefined ? 'unknown' : plainAddress(peer);
  if (!trusted.trusts(socketIp)) return { ip: socketIp, viaTrustedProxy: false };
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (hops.length === 0) return { ip: socketIp, viaTrustedProxy: true };
  let client: string | undefined;
  if (trusted.entries === 'all') client = hops.at(-1);
  else {
    for (let i = hops.length - 1; i >= 0 && client === undefined; i--) {
      const hop = hops[i]!;
      if (isIP(hop) === 0 || !trusted.trusts(hop)) client = hop;
    }
    client ??= hops[0]; // every hop is one of ours: the request started at the first
  }
  if (client === undefined || isIP(client) === 0)
    return { ip: socketIp, viaTrustedProxy: true, badForwardedFor: (client ?? '').slice(0, 100) };
  return { ip: plainAddress(client), viaTrustedProxy: true };
}

/** The eight 16-bit groups of an IPv6 address, as numbers. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]!; // no zone index
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16));
}

/**
 * The key rate limits count a client under: its IPv4 address, or its IPv6 /64. One IPv6
 * subscriber usually gets a whole /64 (RFC 6177), so counting single IPv6 addresses would
 * hand one client 2^64 fresh allowances. Anything that is not an IP address stays as it is.
 */
export function rateLimitKey(ip: string): string {
  const plain = plainAddress(ip);
  if (isIP(plain) !== 6) return plain;
  return `${ipv6Groups(plain)
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * The network a client's address belongs to, for limits a whole network shares: an IPv4
 * address's /24 (`203.0.113.0/24`), or an IPv6 address's /64 (the same key as rateLimitKey:
 * one subscriber's whole allocation). Anything that is not an IP address stays as it is.
 */
export function networkKey(ip: string): string {
  const plain = plainAddress(ip);
  if (isIP(plain) === 4) return `${plain.split('.').slice(0, 3).join('.')}.0/24`;
  return rateLimitKey(plain);
}
