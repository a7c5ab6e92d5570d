import type { PublicHosts } from '#shared/schemas/booking';
import type { Db } from '../db/client.ts';
import { getBookingSettings } from '../db/queries/bookings-queries.ts';
import { readWebsiteHostNames } from '../db/queries/hosts-queries.ts';

/** "DO" for Dana O'Neil: what stands for a person's photo. */
export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

/**
 * The people a visitor may choose to meet: when online booking is open and the owners let
 * visitors choose, everyone who takes website calls, by name and initials only (never an email);
 * otherwise nobody, and `choose` is false.
 */
export async function publicHosts(db: Db): Promise<PublicHosts> {
  const settings = await getBookingSettings(db);
  if (!settings.enabled || !settings.visitors_choose_host) return { choose: false, hosts: [] };
  const hosts = await readWebsiteHostNames(db);
  return { choose: true, hosts: hosts.map((h) => ({ ...h, initials: initialsOf(h.name) })) };
}
