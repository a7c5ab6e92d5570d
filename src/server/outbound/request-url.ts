import { OutboundError } from './outbound-error.ts';

/**
 * The URLs a guarded request may ask for: http and https only (a file:, ftp: or gopher: URL
 * would reach what a web request may not), without a user name or password in them.
 */

const credentialsMessage =
  'The address has a user name or password in it, which this server does not send: remove them from the address (where a password is needed, it has its own field).';

/**
 * The URL to request for what someone typed. With `webcal`, a webcal:// link (how calendar
 * apps name an iCalendar feed, which is served over HTTPS) is read as https://.
 */
export function requestUrl(input: string | URL, { webcal = false }: { webcal?: boolean } = {}): URL {
  let url: URL;
  try {
    url = new URL(String(input).trim());
  } catch {
    throw new OutboundError('bad_url', 'That is not a complete web address: it should start with https://.');
  }
  // A scheme cannot be switched to https in place (webcal: is not one of the special schemes), so parse again.
  if (webcal && (url.protocol === 'webcal:' || url.protocol === 'webcals:')) url = new URL(`https:${url.href.slice(url.protocol.length)}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError(
      'bad_url',
      webcal ? 'The address must start with https://, http:// or webcal://.' : 'The address must start with https:// or http://.',
    );
  }
  if (url.username || url.password) throw new OutboundError('bad_url', credentialsMessage);
  return url;
}

/** Where a redirect from `from` leads: an http(s) URL without credentials, or an OutboundError. */
export function redirectTarget(location: string, from: URL): URL {
  let url: URL;
  try {
    url = new URL(location, from);
  } catch {
    throw new OutboundError('bad_url', `${from.hostname} redirected to an address that is not valid.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('bad_url', `${from.hostname} redirected to a ${url.protocol} address, which this server does not follow.`);
  }
  if (url.username || url.password) {
    throw new OutboundError(
      'bad_url',
      `${from.hostname} redirected to an address with a user name or password in it, which this server does not follow.`,
    );
  }
  return url;
}

/** The port a request for `url` connects to. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** The name to look up for `url`: its hostname without an IPv6 address's brackets. */
export function lookupName(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}
