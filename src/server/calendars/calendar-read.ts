import { createHash } from 'node:crypto';
import type { Busy } from '../lib/busy-times.ts';

/** Why a calendar could not be read, in words for its owner. */
export class CalendarReadError extends Error {
  override readonly name = 'CalendarReadError';
}

/** What one read of a calendar found. */
export type CalendarRead = { busy: Busy[]; warnings: string[]; digest: string };

/** Reading a calendar, in its worker: room for the largest calendar a fetch accepts (docs/performance.md, "Measurements behind the code"). */
export const READ_TIMEOUT_MS = 30_000;

/** A fingerprint of busy times: an unchanged calendar is not stored again. */
export const digestOf = (busy: readonly Busy[]) =>
  createHash('sha256')
    .update(busy.map((b) => `${b.start}-${b.end}`).join(','))
    .digest('base64url');

/** Waits for `work`, or `ms`, whichever comes first (the work goes on either way). */
export async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** What a person sees of where a calendar lives: the service's name (Google Calendar, iCloud…), else its host. */
export function calendarServiceOf(url: string): string {
  const host = new URL(url).hostname.toLowerCase();
  if (host === 'calendar.google.com') return 'Google Calendar';
  if (host.startsWith('outlook.') || host.endsWith('.outlook.com')) return 'Outlook';
  if (host.endsWith('icloud.com')) return 'iCloud';
  if (host.endsWith('fastmail.com')) return 'Fastmail';
  if (host.endsWith('zoho.com') || host.endsWith('zoho.eu')) return 'Zoho';
  return host;
}
