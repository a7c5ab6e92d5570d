import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { plainAddress, rateLimitKey, type TrustedProxies } from '../lib/client-address.ts';

/**
 * How long a client may take, so that slow clients cannot hold the server's connections
 * (Node's defaults: 60 s for the headers, 300 s for the whole request). The request timeout
 * covers receiving the request only: a response may stream for as long as it needs (the live
 * notification stream, a CSV export). Node checks these every connectionsCheckingInterval.
 * https://nodejs.org/api/http.html#serverrequesttimeout
 */
export const CONNECTION_TIMEOUTS = {
  /** From the connection (or the end of the previous request) to the end of the headers. */
  headersTimeout: 10_000,
  /** From the connection (or the end of the previous request) to the end of the body: 64 KB at most. */
  requestTimeout: 30_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * Open connections allowed from one client address (one IPv6 /64) at a time. A browser opens
 * at most 6 per host over HTTP/1.1, so 100 is many tabs or a whole office behind one NAT.
 */
export const MAX_CONNECTIONS_PER_CLIENT = 100;

/**
 * Closes a new connection at once when its address already has `max` open, so that one host
 * cannot take all of them. Trusted proxies (TRUST_PROXY) carry every client's connections
 * and are not counted: with TRUST_PROXY=on that is every peer, so the cap is the proxy's job.
 */
export function limitConnectionsPerClient(server: Server, trusted: TrustedProxies, logger: Logger, max = MAX_CONNECTIONS_PER_CLIENT) {
  const open = new Map<string, number>();
  const warned = new Set<string>();
  server.on('connection', (socket) => {
    const address = plainAddress(socket.remoteAddress ?? 'unknown');
    if (trusted.trusts(address)) return;
    const key = rateLimitKey(address);
    const count = open.get(key) ?? 0;
    if (count >= max) {
      if (!warned.has(key)) {
        // Once until that client's connections are all closed again, not once per refusal.
        warned.add(key);
        logger.warn({ client: key, max }, `refusing connections from ${key}: it has ${max} open`);
      }
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else {
        open.delete(key);
        warned.delete(key);
      }
    });
  });
}
