import { lookup } from 'node:dns/promises';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { type AllowedHost, firstNonPublic, isAllowedHost } from './address-policy.ts';
import { type Answer, exchange, NotConnected } from './exchange.ts';
import { OutboundError, seconds } from './outbound-error.ts';
import { lookupName, portOf, redirectTarget, requestUrl } from './request-url.ts';

/**
 * The one way the server requests a URL that a person typed (a calendar's iCalendar link, a
 * CalDAV server, later webhooks). Such a URL may name anything the server can reach, its own
 * network included, so: the name is looked up here, every address it has must be public
 * (address-policy.ts) unless OUTBOUND_ALLOW_HOSTS names the host, and the connection goes to
 * an address that was checked, so a name cannot answer one address to the check and another
 * to the connection. Each redirect is checked the same way. Time and size are capped.
 */

export const MAX_REDIRECTS = 5;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

export type GuardedFetchOptions = {
  /** GET unless said; CalDAV uses PROPFIND, REPORT, PUT and DELETE. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /**
   * Sent as HTTP basic authentication, and only to the first URL's origin: a redirect to
   * another origin gets neither this nor the Authorization and Cookie headers.
   */
  basicAuth?: { username: string; password: string };
  /** config.outboundAllowHosts: hosts reached whatever their addresses. */
  allowHosts?: readonly AllowedHost[];
  /** Read webcal:// as https:// (calendar links only). */
  webcal?: boolean;
  /** The whole request: lookups, connections, redirects and the body (10 s). */
  timeoutMs?: number;
  /** Each connection, TLS handshake included (5 s). */
  connectTimeoutMs?: number;
  /** The answer's body (5 MB); the connection is closed as soon as more arrives. */
  maxBodyBytes?: number;
  /** Redirects followed, each checked (5); 0 answers a redirect as it is (webhooks). */
  maxRedirects?: number;
  /** Over maxBodyBytes: keep the first maxBodyBytes and close the connection instead of failing. */
  truncateBody?: boolean;
  /** A name's addresses (default: the system's resolver); tests hand in their own so no lookup leaves the machine. */
  lookupAddresses?: (name: string) => Promise<string[]>;
};

export type GuardedResponse = {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
  /** The body as text, in the charset its Content-Type names (UTF-8 without one). */
  text(): string;
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials, which another origin must not get. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
/** Headers this module writes itself. */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

/** The answer to `input`, or an OutboundError whose message can be shown to the person who typed it. */
export async function guardedFetch(input: string | URL, options: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let url = requestUrl(input, { webcal: options.webcal });
  const firstOrigin = url.origin;
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body === undefined ? undefined : Buffer.from(options.body);
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new OutboundError('timeout', `${url.hostname} did not answer within ${seconds(timeoutMs)}.`)),
    timeoutMs,
  );
  try {
    for (let redirects = 0; ; redirects++) {
      const addresses = await checkedAddresses(url, options, controller.signal);
      const headers = hopHeaders(options, url, url.origin === firstOrigin, body);
      const answer = await exchangeAny(addresses, (address) =>
        exchange({
          url,
          address,
          method,
          headers,
          body,
          connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
          maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
          truncateBody: options.truncateBody ?? false,
          signal: controller.signal,
          skipBody: (status, h) => maxRedirects > 0 && REDIRECTS.has(status) && h.location !== undefined,
        }),
      );
      const location = maxRedirects > 0 && REDIRECTS.has(answer.status) ? answer.headers.location : undefined;
      if (location === undefined) return response(answer, url);
      if (redirects === maxRedirects) {
        throw new OutboundError(
          'too_many_redirects',
          `${url.hostname} redirected more than ${maxRedirects} times, so the request was stopped.`,
        );
      }
      const next = redirectTarget(location, url);
      // As browsers do: 303 asks for the new URL with GET, and so do 301 and 302 after a POST.
      if ((answer.status === 303 && method !== 'HEAD') || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      url = next;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The addresses of `url`'s host, all public or the host allowed; else an OutboundError. */
async function checkedAddresses(url: URL, options: GuardedFetchOptions, signal: AbortSignal): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await whileNotAborted((options.lookupAddresses ?? lookupAll)(lookupName(url)), signal);
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    throw lookupError(error as NodeJS.ErrnoException, url.hostname);
  }
  // Only an IP address is connected to as it is: a name would be looked up again when connecting.
  if (addresses.length === 0 || addresses.some((address) => isIP(address) === 0))
    throw lookupError({ code: 'ENOTFOUND' } as NodeJS.ErrnoException, url.hostname);
  if (firstNonPublic(addresses) !== undefined && !isAllowedHost(options.allowHosts ?? [], url.hostname, portOf(url))) {
    throw new OutboundError(
      'blocked_address',
      `${url.hostname} points to a private or local network address, which this server does not reach. An administrator can allow it with OUTBOUND_ALLOW_HOSTS.`,
    );
  }
  return addresses;
}

async function lookupAll(name: string): Promise<string[]> {
  return (await lookup(name, { all: true })).map((found) => found.address);
}

function lookupError(error: NodeJS.ErrnoException, host: string): OutboundError {
  const code = error.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME' || code === 'ENODATA')
    return new OutboundError('dns', `The server name ${host} could not be found: check the address for typos.`);
  if (code === 'EAI_AGAIN' || code === 'ETIMEOUT')
    return new OutboundError('dns', `The server name ${host} could not be looked up just now. Please try again later.`);
  return new OutboundError('dns', `The server name ${host} could not be looked up${code ? ` (${code})` : ''}.`);
}

/** The first address that connects answers; when none does, the last one's error. */
async function exchangeAny(addresses: readonly string[], attempt: (address: string) => Promise<Answer>): Promise<Answer> {
  let last: OutboundError | undefined;
  for (const address of addresses) {
    try {
      return await attempt(address);
    } catch (error) {
      if (!(error instanceof NotConnected)) throw error;
      last = error.error;
    }
  }
  throw last!;
}

function hopHeaders(options: GuardedFetchOptions, url: URL, sameOrigin: boolean, body: Buffer | undefined): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const key = name.toLowerCase();
    if (OWN_HEADERS.has(key) || (!sameOrigin && CREDENTIAL_HEADERS.has(key)) || (body === undefined && key === 'content-type')) continue;
    headers[key] = value;
  }
  if (options.basicAuth && sameOrigin) {
    const { username, password } = options.basicAuth;
    headers.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }
  headers.host = url.host;
  if (body !== undefined) headers['content-length'] = body.length;
  return headers;
}

function response(answer: Answer, url: URL): GuardedResponse {
  return {
    ...answer,
    url: url.href,
    text: () => decode(answer.body, answer.headers['content-type']),
  };
}

function decode(body: Buffer, contentType: string | undefined): string {
  const charset = /charset="?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder().decode(body); // a charset TextDecoder does not know
  }
}

function whileNotAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
