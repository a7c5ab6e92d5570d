import { analyticsEvents } from '../schema.ts';
import type { Db } from '../client.ts';

export type NewAnalyticsEvent = typeof analyticsEvents.$inferInsert;

/** One multi-row INSERT (one transaction) for a batch of events. */
export async function insertAnalyticsEvents(db: Db, events: NewAnalyticsEvent[]): Promise<void> {
  if (events.length > 0) await db.insert(analyticsEvents).values(events);
}
