import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { describeError } from '../db/database-faults.ts';
import { execute, pgArray } from '../db/sql.ts';
import { GroupCommit } from '../lib/group-commit.ts';
import type { ChangeResource } from './channels.ts';

/**
 * Live announcements made after the commit, for the busiest writes (a burst of form
 * submissions).
 *
 * The live lists and the bell learn of changes through NOTIFY, sent by triggers inside the
 * change's transaction. PostgreSQL lets one NOTIFYing transaction commit at a time (it holds a
 * database-wide lock from the commit until its WAL is on disk), so every lead insert queued its
 * commit behind the others'. A transaction that selects `LIVE_AFTER_COMMIT` (db/sql.ts) keeps its triggers
 * silent instead (migration 0059), and once it has committed its code hands what it changed to
 * `NotificationHub.announce`: the announcements of many transactions then go out in one statement,
 * one short NOTIFYing transaction for a whole batch.
 *
 * What this costs: an announcement is a hint, as a NOTIFY always was. A process killed between
 * the commit and the announcement sends none; every browser still sees the change at its next
 * `ready` (a reconnect) or its next refetch, and the notification is in the bell's list.
 */

/** What one committed transaction changed: resources whose lists refetch, notifications to push. */
export type Announcement = { resources: readonly ChangeResource[]; notifications: readonly string[] };

/** How long announcements gather before they go out: a browser refetching 50 ms later is no later to a person. */
export const ANNOUNCE_WAIT_MS = 50;

export class AfterCommit {
  private readonly batches: GroupCommit<Announcement>;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly channels: { changes: string; notifications: string },
  ) {
    // At most one statement in flight per process, gathering for ANNOUNCE_WAIT_MS: under load
    // one short NOTIFYing transaction per wait at most, however many leads commit.
    this.batches = new GroupCommit((items) => this.send(items), {
      maxBatch: 1000,
      maxWaitMs: ANNOUNCE_WAIT_MS,
      maxInFlight: 1,
      isolates: () => false,
    });
  }

  /** Announces what a committed transaction changed; never throws, never waits. */
  announce(announcement: Announcement): void {
    if (announcement.resources.length === 0 && announcement.notifications.length === 0) return;
    this.batches.add(announcement).catch((err: unknown) => {
      // Said as the outbox says it (a fault's name or a SQL state), never with a stack.
      this.logger.warn(describeError(err), 'a live announcement was not sent; open pages catch up at their next refetch');
    });
  }

  /** Resolves once every announcement made so far has been sent (or given up). */
  async drain(): Promise<void> {
    while (this.batches.pending > 0) await this.batches.add({ resources: [], notifications: [] }).catch(() => undefined);
  }

  private async send(items: Announcement[]): Promise<void> {
    const resources = [...new Set(items.flatMap((a) => a.resources))];
    const notifications = items.flatMap((a) => a.notifications);
    if (resources.length === 0 && notifications.length === 0) return; // drain's marker alone
    // The payload is the one the trigger sends (crm_notification_payload), read from the rows.
    // A hint needs no durable commit: its transaction does not wait for the WAL flush (while it
    // commits, it holds the lock every NOTIFYing commit takes).
    await execute(
      this.database.db,
      sql`select set_config('synchronous_commit', 'off', true), (select count(pg_notify(${this.channels.changes}, r)) from unnest(${pgArray(resources)}::text[]) r),
        (select count(pg_notify(${this.channels.notifications}, crm_notification_payload(n)))
         from notifications n where n.id = any(${pgArray(notifications)}::uuid[]))`,
    );
  }
}
