import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/chromium.ts';
import { freePortBase } from './tests/free-ports.ts';

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
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  // One folder per project under tests/e2e/: a new spec joins the project of the folder it is
  // put in, and runs in the order below (`dependencies`). Specs share one server and its data,
  // so a folder is chosen by what its specs change that others count:
  //   public/          the public pages; they submit leads. First: every admin gets a
  //                    notification for every lead, so the admin specs run after them.
  //   admin/           the dashboard shell; its bell test counts unread notifications.
  //   admin-data/      leads, appointments, analytics: they create leads (and notifications), after admin/.
  //   admin-security/  puts a payload lead and appointment into the Overview's counts and
  //                    7-day window: after the specs that check those.
  //   email/           leads and appointments of its own, counted in the mail sink (also on PostgreSQL).
  //   booking/         bookings notify every admin and change the booking settings: after the specs that count either.
  //   lead-privacy/    deletes, erases and merges leads (and their notifications and appointments).
  //   team/            invites, deactivates and removes accounts (a new admin gets the
  //                    notifications of later leads): after the others.
  //   account/         specs on a server of their own each (tests/e2e/own-server.ts): a first run, an
  //                    admin's password and two-factor, the website editor, the weekly report. They
  //                    share only the mail sink (each reads its own addresses), so they run from the
  //                    start, beside public/ and https/, where a chained project's last file would
  //                    otherwise leave a worker idle.
  //   https/           what only HTTPS shows, through Caddy; the https project also runs the
  //                    landing, lead-form and sign-in specs that way (listed below).
  // Helpers (fixtures.ts, own-server.ts, showcase.ts) stay in tests/e2e/ itself.
  projects: [
    folder('public'),
    folder('admin', ['public']),
    folder('admin-data', ['admin']),
    folder('admin-security', ['admin-data']),
    folder('email', ['admin-security']),
    folder('booking', ['admin-security']),
    folder('lead-privacy', ['admin-security']),
    folder('team', ['lead-privacy']),
    folder('account'),
    // The public pages, the lead form and signing in again, over HTTPS through Caddy; and what only HTTPS shows.
    // Caddy keeps the browser's X-Forwarded-For (it comes from this machine), so each test is still a visitor of its own.
    {
      name: 'https',
      testMatch: [/[\\/]https[\\/].*\.spec\.ts$/, /[\\/]public[\\/](landing|lead-form)\.spec\.ts$/, /[\\/]admin[\\/]admin\.spec\.ts$/],
      grepInvert: /dashboard shell|notifications/,
      use: { ...devices['Desktop Chrome'], baseURL: httpsBaseURL, ignoreHTTPSErrors: true },
    },
    ...(postgresUrl
      ? [{ ...folder('email', ['admin-security']), name: 'email-postgres', use: { ...devices['Desktop Chrome'], baseURL: pgBaseURL } }]
      : []),
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

/** The project that runs every spec in tests/e2e/<name>/, after the projects it depends on. */
function folder(name: string, dependencies: string[] = []) {
  return { name, testDir: `tests/e2e/${name}`, dependencies, use: { ...devices['Desktop Chrome'] } };
}

/** The built server as the browser tests run it, on `port`; its database is the caller's to add. */
function appServer(port: number) {
  return {
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Every query's rows are checked against their schema, as in development.
      NODE_ENV: 'test',
      // A real minimum fill time (bots are dropped silently) and a low limit the
      // rate-limit spec can reach.
      LEAD_MIN_FILL_SECONDS: '1',
      LEAD_RATE_LIMIT: '5',
      // The website's booking limits off: the specs book from few addresses, many times an hour.
      // tests/e2e/booking/held-booking.spec.ts runs a server of its own with them on.
      BOOKING_RATE_LIMIT: '0',
      BOOKING_HOLD_ABOVE_PER_HOUR: '0',
      // Each spec that submits the form sends its own X-Forwarded-For (tests/e2e/fixtures.ts),
      // so the per-IP limit of one spec never leaks into another.
      TRUST_PROXY: '1',
      // The admin the sign-in and dashboard specs use (tests/e2e/fixtures.ts), and the name the product shows for them.
      ADMIN_EMAIL: 'e2e-admin@example.com',
      ADMIN_NAME: 'Erin Admin',
      ADMIN_PASSWORD: 'e2e-admin-password',
      // Every email goes to the suite's mail sink (tests/e2e/email/email.spec.ts reads it).
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_MAIL_SMTP_PORT}`,
      MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
      MAIL_REPLY_TO: 'replies@keystone.test',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
  };
}
