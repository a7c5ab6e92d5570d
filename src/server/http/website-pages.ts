import type { WebsiteContent } from '#shared/website-content';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { getWebsiteContent, websiteUpdatedAt } from '../db/queries/website-queries.ts';
import type { StaticSite } from './static-site.ts';

/** How often a process looks whether another one saved new words (one tiny query at most this often, and only while pages are asked for). */
const CHECK_EVERY_MS = 3_000;

const yearIn = (timeZone: string, now = new Date()) => new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' }).format(now);

/**
 * Keeps the served public pages filled with the firm's saved words and the current year: at
 * the first page request (before answering it), at once after a save in this process, and,
 * for a save in another process or a new year, within a few seconds (checked on page
 * requests, never delaying them).
 */
export class WebsitePages {
  private loaded: Promise<void> | undefined;
  private updatedAt: string | null = null;
  private lastCheck = 0;
  private lastFailure = 0;
  private checking = false;

  constructor(
    private readonly site: StaticSite,
    private readonly database: () => Database | undefined,
    private readonly config: Config,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Call before serving a page: resolves at once but for the very first page. */
  async fresh(): Promise<void> {
    if (!this.loaded) {
      const db = this.database();
      // Not open yet, or the last try failed moments ago: the last words are served, and a later request loads.
      if (!db || Date.now() - this.lastFailure < CHECK_EVERY_MS) return;
      this.loaded = this.load(db).catch((err: unknown) => {
        this.loaded = undefined;
        this.lastFailure = Date.now();
        this.onError(err);
      });
      await this.loaded;
      return;
    }
    if (Date.now() - this.lastCheck < CHECK_EVERY_MS || this.checking) return;
    this.checking = true;
    this.lastCheck = Date.now();
    void this.check()
      .catch(this.onError)
      .finally(() => {
        this.checking = false;
      });
  }

  /** The words just saved (by this process): every page refilled before the save is answered. */
  apply(content: WebsiteContent, updatedAt: string | null): void {
    this.updatedAt = updatedAt;
    this.site.refill({ website: content, year: yearIn(this.config.businessTimeZone) });
  }

  /** When the words served were saved (null: never, the defaults). */
  savedAt(): string | null {
    return this.updatedAt;
  }

  private async load(db: Database): Promise<void> {
    const { content, updatedAt } = await getWebsiteContent(db.db, this.config.site);
    this.lastCheck = Date.now();
    this.apply(content, updatedAt);
  }

  private async check(): Promise<void> {
    const db = this.database();
    if (!db) return;
    const year = yearIn(this.config.businessTimeZone);
    if ((await websiteUpdatedAt(db.db)) !== this.updatedAt || this.site.values().year !== year) await this.load(db);
  }
}
