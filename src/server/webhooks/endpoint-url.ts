import type { Config } from '../config.ts';
import { AppError } from '../lib/app-error.ts';
import { isAllowedHost } from '../outbound/address-policy.ts';
import { portOf } from '../outbound/request-url.ts';

/**
 * Where a webhook may point: HTTPS, or plain HTTP only to a host OUTBOUND_ALLOW_HOSTS lists (a
 * receiver on the firm's own network); never with a user name or password in it. Whether its
 * addresses are public is checked at every delivery, by the guarded fetcher. The reason in
 * words, or undefined when it may.
 */
export function endpointUrlProblem(value: string, allowHosts: Config['outboundAllowHosts']): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a full URL, starting with https://';
  }
  if (url.username || url.password) return 'Leave the user name and password out of the URL.';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:')
    return isAllowedHost(allowHosts, url.hostname, portOf(url))
      ? undefined
      : 'Use an https:// URL (plain http:// only to a host listed in OUTBOUND_ALLOW_HOSTS).';
  return 'Use an https:// URL.';
}

/** endpointUrlProblem as the API refuses it: 400, on the `url` field. */
export function requireEndpointUrl(value: string, allowHosts: Config['outboundAllowHosts']): void {
  const problem = endpointUrlProblem(value, allowHosts);
  if (problem) throw new AppError('validation_failed', problem, { url: problem });
}
