import { createHash } from 'node:crypto';
import type { Busy } from '../booking/availability.ts';

/** Why a calendar could not be read, in words for its owner. */
export class CalendarReadError extends Error {
  override readonly name = 'CalendarReadError';
}

/** What one read of a calendar found. */
export type CalendarRead = { busy: Busy[]; warnings: string[]; digest: string };

/** Reading a calendar, in its worker: a 2,000-event feed takes well under a second; 10 MB of events, about ten. */
export const READ_TIMEOUT_MS = 30_000;

/** A fingerprint of busy times: an unchanged calendar is not stored again. */
export const digestOf = (busy: readonly Busy[]) =>
  createHash('sha256')
    .update(busy.map((b) => `${b.start}-${b.end}`).join(','))
    .digest('base64url');
