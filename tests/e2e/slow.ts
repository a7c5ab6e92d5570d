/**
 * Every time limit of the browser tests above Playwright's defaults (playwright.config.ts: 30 s
 * a test, 10 s an expect), each with why: the specs use these names, never a number of their
 * own. What they wait for takes long on the suite's 2-core CI machine, which runs two browsers,
 * four servers and the other workers' tests at once; on a quiet machine it takes a fraction.
 * A limit below the default is a claim of its test ("within a second or two") and stays there.
 */
export const SLOW = {
  /**
   * A hook or test that starts a server of its own (tests/e2e/own-server.ts) and seeds it, and,
   * for some, Dovecot or Radicale: a built server starts in about 2 s on a quiet machine, and
   * took over 25 s on a busy one.
   */
  serverStart: 90_000,

  /**
   * An email reaching the suite's mail sink: the outbox sends in the background, one message
   * after another, and pauses between batches while its server is busy with requests
   * (src/server/mail/outbox.ts), as it is all through the suite.
   */
  mail: 20_000,

  /**
   * A booked or cancelled call written into, or removed from, an outside CalDAV calendar
   * (Radicale): the server's calendar writer does it in the background, after the answer.
   */
  calendarWrite: 20_000,

  /**
   * A live notification or toast after the browser's stream was cut, or while the server is
   * busy: EventSource reconnects after the server's `retry` (3 s; Chromium waits longer after
   * a network change), then the bell refetches.
   */
  reconnect: 15_000,

  /**
   * The reply reader's next look at a real IMAP server (every second here), its parsing and the
   * live update: past 10 s while Dovecot, the server and two browsers share the 2 cores.
   */
  imap: 30_000,

  /**
   * A test that signs in, makes its data and walks many pages or states (ten or more page loads,
   * each axe scan a second or more on a busy machine).
   */
  longTest: 60_000,

  /**
   * A test whose steps each wait on a server's work in the background (mail, the reply reader,
   * outside calendars, webhooks) or drive a second browser window: several of the waits above
   * in one test.
   */
  longerTest: 90_000,

  /**
   * Removing the accounts a test made (`login()`, `newAdmin()` in tests/e2e/fixtures.ts), after
   * the test: its own limit, so a test that used most of its 30 s does not fail in the clean-up.
   * Each removal is one request the owner makes; under the suite's load one took over 10 s.
   */
  accountCleanup: 30_000,

  /** The screenshot and axe walks (tests/e2e/public/pages.spec.ts): about ten states, modals among them, each scanned by axe. */
  walk: 120_000,
} as const;
