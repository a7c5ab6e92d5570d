import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/chromium.ts';
import { freePortBase } from './tests/free-ports.ts';
import { e2eServerEnv } from './tests/e2e/server-env.ts';

/**
 * Browser tests against the real, built server (`npm run build` first): the prerendered
 * pages, the API and a fresh data directory per run. The config is evaluated again in each
 * worker; the env var keeps one data directory per run.
 */
// Seven ports per run (the app, the mail sink's two, the PostgreSQL leg's and the HTTPS leg's
// three), free when chosen and outside the ephemeral range; shared by the workers (they
// evaluate this file again), so two runs on one machine do not collide.
process.env.E2E_PORT ??= String(freePortBase(7));
const PORT = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${PORT}`;
process.env.E2E_DATA_DIR ??= path.join('.test-data', `e2e-${Date.now()}`);
// The mail sink every server of the run sends to (scripts/mail-sink.ts), and the PostgreSQL leg's server.
process.env.E2E_MAIL_SMTP_PORT ??= String(PORT + 1);
process.env.E2E_MAIL_HTTP_PORT ??= String(PORT + 2);
process.env.E2E_PG_PORT ??= String(PORT + 3);
const pgBaseURL = `http://127.0.0.1:${process.env.E2E_PG_PORT}`;
// The HTTPS leg: Caddy with deploy/Caddyfile in front of a server of its own (scripts/e2e-https-server.ts).
process.env.E2E_HTTPS_PORT ??= String(PORT + 4);
process.env.E2E_HTTPS_APP_PORT ??= String(PORT + 5);
process.env.E2E_HTTP_REDIRECT_PORT ??= String(PORT + 6);
process.env.E2E_CADDY_DIR ??= path.resolve(`${process.env.E2E_DATA_DIR}-https`);
const httpsBaseURL = `https://localhost:${process.env.E2E_HTTPS_PORT}`;
const postgresUrl = process.env.TEST_DATABASE_URL;
if (process.env.CI === 'true' && !postgresUrl)
  throw new Error('CI=true needs TEST_DATABASE_URL: the PostgreSQL leg of the browser tests must run.');
const dataDir = process.env.E2E_DATA_DIR;
mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // the server refuses a DATA_DIR others can read

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0, // a flaky test is a defect to fix, not to retry
  forbidOnly: Boolean(process.env.CI),
  // In CI a JSON report too: .ci/run prints its failures again at the very end (scripts/playwright-failures.mjs),
  // where a log cut to its tail still shows why a test failed.
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: 'artifacts/playwright-report.json' }]]
    : [['list'], ['html', { open: 'never' }]],
  // Above these, a spec says why with a name from tests/e2e/slow.ts.
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // Booking open every day on the shared servers, once they answer (tests/e2e/prepare-server.ts).
  globalSetup: './tests/e2e/global-setup.ts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  // One project per folder of tests/e2e/, in no order and with no `dependencies`: no spec
  // counts, changes or needs another's data, so any spec may run before, after or beside any
  // other (on 2 workers, file by file). How a spec makes its own data (tests/e2e/fixtures.ts,
  // docs/testing.md):
  //   - `login()` makes the test an account of its own (an owner with a unique email and name,
  //     or staff) and signs the page in as it; it is removed when the test ends. No spec signs
  //     in as the servers' owner (E2E_ADMIN), who only makes those accounts.
  //   - `createLead()` / `createAppointment()` make the test's leads and appointments, with
  //     unique names and emails; a list is read filtered to them (a search for the test's tag,
  //     the calendar's Person filter set to the test's account, the audit log's person).
  //   - a count every account sees (the bell's unread count, the Overview's totals, live toasts)
  //     is read on the worker's quiet server (`onQuietServer()`), which only one test at a time
  //     reaches; a spec that needs an empty database, or changes the team's settings, runs a
  //     server of its own (tests/e2e/own-server.ts; account/ is made of those).
  // The folders only group specs by subject:
  //   public/          the public pages and the lead form; pages.spec.ts walks every page on
  //                    seeded servers of its own (showcase.ts).
  //   admin/           sign-in and the dashboard shell; the bell on the quiet server.
  //   admin-data/      leads, appointments, analytics.
  //   admin-security/  stored script payloads, shown inert everywhere.
  //   email/           what reaches the mail sink (also on PostgreSQL: email-postgres).
  //   booking/         the booking picker and private links.
  //   lead-privacy/    deleting, exporting, erasing and merging a person's data.
  //   team/            invitations, roles and the audit log.
  //   account/         each on a server of its own: a first run, one's password and two-factor,
  //                    the website editor, the weekly report, and the like.
  //   https/           what only HTTPS shows, through Caddy; the https project also runs the
  //                    landing, lead-form and sign-in specs that way (listed below).
  // Helpers (fixtures.ts, own-server.ts, server-env.ts, slow.ts, showcase.ts) stay in tests/e2e/ itself.
  projects: [
    // The longest first, so no worker is left with one of them at the end.
    folder('public'),
    folder('admin-data'),
    folder('booking'),
    folder('account'),
    folder('email'),
    folder('lead-privacy'),
    folder('team'),
    folder('admin'),
    folder('admin-security'),
    // The public pages, the lead form and signing in again, over HTTPS through Caddy; and what only HTTPS shows.
    // Caddy keeps the browser's X-Forwarded-For (it comes from this machine), so each test is still a visitor of its own.
    {
      name: 'https',
      testMatch: [/[\\/]https[\\/].*\.spec\.ts$/, /[\\/]public[\\/](landing|lead-form)\.spec\.ts$/, /[\\/]admin[\\/]admin\.spec\.ts$/],
      grepInvert: /dashboard shell|notifications/,
      use: { ...devices['Desktop Chrome'], baseURL: httpsBaseURL, ignoreHTTPSErrors: true },
    },
    ...(postgresUrl ? [{ ...folder('email'), name: 'email-postgres', use: { ...devices['Desktop Chrome'], baseURL: pgBaseURL } }] : []),
  ],
  webServer: [
    {
      command: 'node --import tsx scripts/mail-sink.ts',
      url: `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}/messages`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { MAIL_SINK_SMTP_PORT: process.env.E2E_MAIL_SMTP_PORT, MAIL_SINK_HTTP_PORT: process.env.E2E_MAIL_HTTP_PORT },
    },
    { ...appServer(PORT), command: 'node dist/server/main.js', env: { ...appServer(PORT).env, DATA_DIR: dataDir } },
    {
      ...appServer(Number(process.env.E2E_HTTPS_APP_PORT)),
      command: 'node --import tsx scripts/e2e-https-server.ts',
      url: `${httpsBaseURL}/api/health`,
      ignoreHTTPSErrors: true,
      // No mail: the suite's mail sink counts the messages of the other servers.
      env: { ...appServer(Number(process.env.E2E_HTTPS_APP_PORT)).env, SMTP_URL: '' },
    },
    ...(postgresUrl
      ? [
          {
            ...appServer(Number(process.env.E2E_PG_PORT)),
            command: 'node --import tsx scripts/e2e-postgres-server.ts',
            env: { ...appServer(Number(process.env.E2E_PG_PORT)).env, TEST_DATABASE_URL: postgresUrl },
          },
        ]
      : []),
  ],
});

/** The project that runs every spec in tests/e2e/<name>/. */
function folder(name: string) {
  return { name, testDir: `tests/e2e/${name}`, use: { ...devices['Desktop Chrome'] } };
}

/** The built server as the browser tests run it, on `port`; its database is the caller's to add. */
function appServer(port: number) {
  return {
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    // The settings every browser-test server shares (the worker's quiet servers too), and its address.
    env: { ...e2eServerEnv(), PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
  };
}
