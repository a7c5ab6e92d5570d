import type { BookingSettings } from '#shared/schemas/booking';
import { AppError } from '../../lib/app-error.ts';
import type { Host } from '../hosts.ts';

/**
 * Who a visitor's call may go to (docs/product-rules.md, "Booking a call"): anyone who takes
 * website calls, or, when the owners let visitors choose, the one person they chose.
 */

const noChoosing = () =>
  new AppError('validation_failed', 'Visitors cannot choose who their call is with here.', { host_id: 'Leave it to us: any available' });

/** A person may be named (`hostId`) only where the owners let visitors choose (400, on the field). */
export function requireChoosing(settings: BookingSettings, hostId: string | undefined): void {
  if (hostId !== undefined && !settings.visitors_choose_host) throw noChoosing();
}

/**
 * The people a visitor's booking may go to: everyone who takes website calls (`team`), or the
 * one they chose (when the owners let visitors choose; 400 for someone who does not take them).
 */
export function chosenTeam(settings: BookingSettings, team: Host[], hostId: string | undefined): Host[] {
  if (hostId === undefined) return team;
  requireChoosing(settings, hostId);
  const chosen = team.filter((h) => h.id === hostId);
  if (chosen.length === 0)
    throw new AppError('validation_failed', 'That person does not take calls from the website.', {
      host_id: 'Choose who the call is with',
    });
  return chosen;
}

/**
 * The people a held booking may go to when it is confirmed: the person the visitor chose when
 * they asked, if any (whether or not visitors may still choose), else everyone.
 */
export const heldTeam = (everyone: Host[], hostId: string | null): Host[] => (hostId ? everyone.filter((h) => h.id === hostId) : everyone);
