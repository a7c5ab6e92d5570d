import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { OutboundError, seconds, size } from './outbound-error.ts';
import { lookupName, portOf } from './request-url.ts';

/**
 * One request and its answer over a connection to one address that was already checked. The
 * connection goes to that address and no other (Node never looks the name up again), while the
 * Host header, the TLS server name and the certificate check use the URL's name.
 */

export type ExchangeRequest = {
  url: URL;
  /** The checked address to connect to. */
  address: string;
  method: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | undefined;
  connectTimeoutMs: number;
  maxBodyBytes: number;
  /** Aborted with an OutboundError when the whole request's time is up. */
  signal: AbortSignal;
  /** Over maxBodyBytes: answer the first maxBodyBytes and close the connection, rather than fail (a webhook keeps 1 KB of any answer). */
  truncateBody?: boolean;
  /** Answer at once, without reading the body (a redirect's body is not wanted). */
  skipBody: (status: number, headers: IncomingHttpHeaders) => boolean;
};

export type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** The connection never opened: the name's next address may be tried. */
export class NotConnected {
  constructor(readonly error: OutboundError) {}
}

export function exchange(request: ExchangeRequest): Promise<Answer> {
  const { url, address, signal } = request;
  const secure = url.protocol === 'https:';
  const name = lookupName(url);
  const host = url.hostname;
  return new Promise<Answer>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    let connected = false;
    let settled = false;
    const options: https.RequestOptions = {
      host: address,
      family: isIP(address),
      port: portOf(url),
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers: request.headers,
      agent: false,
      // No server name for an IP address: the certificate is then checked against the address.
      ...(secure ? { servername: isIP(name) ? '' : name } : {}),
    };
    const req = secure ? https.request(options) : http.request(options);

    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (error: OutboundError, retryable: boolean) =>
      settle(() => {
        req.destroy();
        reject(retryable ? new NotConnected(error) : error);
      });
    const onAbort = () => fail(signal.reason as OutboundError, false);
    signal.addEventListener('abort', onAbort, { once: true });
    const connectTimer = setTimeout(
      () => fail(new OutboundError('timeout', `Could not connect to ${host} within ${seconds(request.connectTimeoutMs)}.`), true),
      request.connectTimeoutMs,
    );

    req.once('socket', (socket) => {
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        connected = true;
        clearTimeout(connectTimer);
      });
    });
    req.on('error', (error) => fail(connectionError(error, host), !connected));
    req.once('response', (res) => {
      const status = res.statusCode ?? 0;
      const headers = res.headers;
      if (request.skipBody(status, headers)) {
        return settle(() => {
          req.destroy();
          resolve({ status, headers, body: Buffer.alloc(0) });
        });
      }
      const tooLarge = () =>
        new OutboundError(
          'too_large',
          `The answer from ${host} is larger than ${size(request.maxBodyBytes)}, the most this server accepts.`,
        );
      // A declared length over the cap is refused before a byte of the body is read.
      if (!request.truncateBody && Number(headers['content-length']) > request.maxBodyBytes) return fail(tooLarge(), false);
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received <= request.maxBodyBytes) chunks.push(chunk);
        else if (!request.truncateBody) fail(tooLarge(), false);
        else {
          chunks.push(chunk.subarray(0, chunk.length - (received - request.maxBodyBytes)));
          settle(() => {
            req.destroy();
            resolve({ status, headers, body: Buffer.concat(chunks, request.maxBodyBytes) });
          });
        }
      });
      res.once('end', () => settle(() => resolve({ status, headers, body: Buffer.concat(chunks, received) })));
      const cutShort = () => fail(new OutboundError('network', `The connection to ${host} closed before the whole answer arrived.`), false);
      res.on('error', cutShort);
      res.once('close', () => {
        if (!res.complete) cutShort();
      });
    });
    req.end(request.body);
  });
}

const CERTIFICATE_CODES =
  /^(CERT_|ERR_TLS_CERT_ALTNAME_INVALID|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT)/;

/** A socket or TLS error in words; its code is kept for whoever reads the account page to an administrator. */
function connectionError(error: NodeJS.ErrnoException, host: string): OutboundError {
  const code = error.code ?? '';
  const cause = { cause: error };
  if (CERTIFICATE_CODES.test(code)) {
    return new OutboundError(
      'tls',
      `${host} answered with a certificate this server does not trust (${code}): it is expired, self-signed or for another name.`,
      cause,
    );
  }
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code === 'EPROTO')
    return new OutboundError('tls', `A secure connection to ${host} could not be set up (${code}).`, cause);
  if (code === 'ECONNREFUSED') return new OutboundError('network', `${host} refused the connection.`, cause);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return new OutboundError('network', `${host} cannot be reached from this server's network.`, cause);
  if (code.startsWith('HPE_')) return new OutboundError('network', `${host} did not answer in HTTP.`, cause);
  return new OutboundError('network', `The connection to ${host} failed${code ? ` (${code})` : ''}.`, cause);
}
