/**
 * The sign-in limits (docs/security.md, "Sign-in limits"). Failures are counted in fixed
 * 15-minute windows per (account, IP) pair, per IP and per account. The first two answer 429;
 * the account's own count never locks the account (anyone may send its email), it only slows
 * attempts from sources that are not the owner's once strangers have failed a lot. The
 * two-factor step (a code or a recovery code) follows the same rule with its own counters.
 * OWASP: https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#login-throttling
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** Failures of one account from one IP: then that pair gets 429 until the window ends. */
export const MAX_FAILURES_PER_ACCOUNT_AND_IP = 5;
/** Failures from one IP across accounts: then that IP gets 429 until the window ends. */
export const MAX_FAILURES_PER_IP = 20;
/** Failures of one account from anywhere: past them, attempts from unusual sources wait. */
export const SLOW_DOWN_AFTER_ACCOUNT_FAILURES = 100;
/** The wait grows by this much with each failure past the bound... */
export const SLOW_DOWN_STEP_MS = 1_000;
/** ...up to this. */
export const SLOW_DOWN_MAX_MS = 5_000;

/** How long an attempt waits before its password is checked, given the account's failures in the window (this attempt included). */
export function signInDelayMs(accountFailures: number): number {
  const past = accountFailures - SLOW_DOWN_AFTER_ACCOUNT_FAILURES;
  return past > 0 ? Math.min(SLOW_DOWN_MAX_MS, past * SLOW_DOWN_STEP_MS) : 0;
}

/** The rate-limit keys of one attempt. IPs hold no space, so the pair's key reads back unambiguously. */
export function signInKeys(email: string, ip: string) {
  return { pair: `login:pair:${ip} ${email}`, ip: `login:ip:${ip}`, account: `login:account:${email}` };
}

/**
 * The rate-limit keys of one two-factor code (or recovery code) attempt: the same three
 * counters and bounds as the password, kept apart from them. The account is its id (the
 * challenge names it), so a code's failures never add to the password's.
 */
export function twoFactorKeys(userId: string, ip: string) {
  return { pair: `2fa:pair:${ip} ${userId}`, ip: `2fa:ip:${ip}`, account: `2fa:account:${userId}` };
}

/** What the 429 says, after "Too many " (http/errors.ts tooManyRequests). */
export const TOO_MANY_FOR_PAIR = 'failed sign-ins for this email from your network';
export const TOO_MANY_FOR_IP = 'failed sign-ins from your network';
export const TOO_MANY_CODES_FOR_PAIR = 'wrong codes for this account from your network';
export const TOO_MANY_CODES_FOR_IP = 'wrong codes from your network';
