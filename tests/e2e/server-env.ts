/**
 * How the browser tests run the built server: the environment of the suite's shared server
 * (playwright.config.ts) and of a quiet server of a worker's own (fixtures.ts), so a spec reads
 * the same product on either. No imports: playwright.config.ts reads it too.
 */

/**
 * The owner every such server is started with. The specs never work as them: the fixtures sign
 * in as them once per worker only to make each test an account of its own (fixtures.ts, `login`).
 */
export const E2E_ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-admin-password', name: 'Erin Admin' };

/** The settings of a browser-test server: the shared one's, or a worker's quiet one's. */
export function e2eServerEnv(): Record<string, string> {
  return {
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
    // Each test sends its own X-Forwarded-For (tests/e2e/fixtures.ts), so the per-IP limits of
    // one test never leak into another.
    TRUST_PROXY: '1',
    // The owner who makes each test's own accounts (above).
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_NAME: E2E_ADMIN.name,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    // Every email goes to the suite's mail sink (scripts/mail-sink.ts; tests/e2e/email/email.spec.ts reads it).
    SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_MAIL_SMTP_PORT}`,
    MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
    MAIL_REPLY_TO: 'replies@keystone.test',
  };
}
