import { holdBooking } from '../../db/queries/booking-holds-queries.ts';
import { queueMailOf } from '../../db/queries/emails-queries.ts';
import { networkKey } from '../../lib/client-address.ts';
import { mintToken } from '../../lib/secret-token.ts';
import type { BookingRequest } from '../admission.ts';

/**
 * A website booking that must wait for the visitor's emailed confirmation (admission.ts says
 * when): the time is held for them, not booked, until they click the link we email; it stays
 * open to others meanwhile (docs/security.md, "Calendar exhaustion").
 */

export const HOLD_EXPIRED = 'This confirmation link has expired: links work for 30 minutes. Please pick a time again.';
export const HOLD_UNKNOWN = 'This confirmation link is not valid. Please pick a time again.';

/** The time asked for through the link `token` (its hash `hash`), and the person chosen, if any. */
export type HoldRequest = {
  token: string;
  hash: string;
  date: string;
  time: string;
  type: string;
  visitorTimeZone: string | null;
  hostId: string | null;
};

/**
 * Holds the time and queues the email with its confirmation link (/booking/<token>/confirm/<code>,
 * the code stored only as its hash), in one transaction (holdBooking). Undefined when the email
 * could not be queued: then nothing is held. The caller nudges the outbox.
 */
export async function holdForConfirmation(request: BookingRequest, b: HoldRequest): Promise<{ expiresAt: string } | undefined> {
  const { db, config, clientIp } = request;
  const { token: code, hash: confirmHash } = mintToken();
  const held = await holdBooking(
    db,
    {
      hash: b.hash,
      confirmHash,
      date: b.date,
      time: b.time,
      type: b.type,
      network: networkKey(clientIp),
      link: `/booking/${b.token}/confirm/${code}`,
      visitorTimeZone: b.visitorTimeZone,
      hostId: b.hostId,
    },
    { ...queueMailOf(config.mail), timeZone: config.businessTimeZone },
  );
  return held === 'refused' ? undefined : held;
}
