import { isIP } from 'node:net';
import { AppError } from '../lib/app-error.ts';
import { networkKey } from '../lib/client-address.ts';

/**
 * Which website bookings staff cancel at once as suspected abuse (POST
 * /api/appointments/bulk-cancel): those of one network, named as staff type it.
 */

export const NETWORK_INVALID = 'Enter an IP address or a network like 203.0.113.0/24';

/**
 * The network key a website booking was stored with (lib/client-address.ts, networkKey) for
 * what staff typed: an address (`203.0.113.7`) or its network (`203.0.113.0/24`,
 * `2001:db8:1:2::/64`, however the IPv6 address is written). Undefined for anything else.
 */
export function parseNetwork(text: string): string | undefined {
  const [address = '', prefix, ...rest] = text.trim().split('/');
  if (rest.length > 0) return undefined;
  const version = isIP(address);
  if (version === 0 || (prefix !== undefined && prefix !== (version === 4 ? '24' : '64'))) return undefined;
  return networkKey(address);
}

/** parseNetwork of what was typed, none for nothing; 400 on the field for anything else. */
export function requireNetwork(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  const network = parseNetwork(text);
  if (network === undefined) throw new AppError('validation_failed', NETWORK_INVALID, { network: NETWORK_INVALID });
  return network;
}
