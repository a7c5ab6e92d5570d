import type { FormTokenResponse, PublicLeadRequest } from '#shared/schemas/lead';
import { ApiError, apiRequest } from '#client/lib/api-client.ts';

export const FORM_TOKEN_PATH = '/api/public/form-token';

// Typed against the contract, so a renamed field fails the type check here.
const TOKEN_FIELD: keyof PublicLeadRequest = 'form_token';

/** The server refused the form's token (missing, not its own, or expired): a fresh one will do. */
export const isFormTokenRefused = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code === 'validation_failed' && error.fields?.[TOKEN_FIELD] !== undefined;

// Sent this long past the minimum age, so a small clock difference between the server's
// processes never makes a person look like a bot.
const SEND_MARGIN_MS = 500;
// Replaced this long before the server would refuse it (a page left open for a day).
const RENEW_MARGIN_MS = 10 * 60_000;

type Held = { token: string; receivedAt: number; minMs: number; maxMs: number };

export type FormTokenKeeper = {
  /** At first focus of the form: fetch a token now, so it has aged by the time the form is sent. */
  prefetch: () => void;
  /** A token the server will take: fresh enough, and old enough (waits out what is left of the minimum). */
  ready: () => Promise<string>;
  /** Forget the token the server refused; the next `ready()` fetches another. */
  discard: () => void;
};

type Options = {
  fetchToken?: () => Promise<FormTokenResponse>;
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
};

/**
 * The lead form's token from GET /api/public/form-token. The server times the form from when
 * it handed the token out and drops a form sent sooner than min_age_seconds as a bot's, so a
 * person who is quicker than that (autofill) waits the rest here, under "Submitting...",
 * rather than being dropped.
 */
export function formTokenKeeper({
  fetchToken = () => apiRequest<FormTokenResponse>('GET', FORM_TOKEN_PATH),
  now = Date.now,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}: Options = {}): FormTokenKeeper {
  let held: Promise<Held> | undefined;

  const fetchFresh = () => {
    const next = fetchToken().then((answer) => ({
      token: answer.form_token,
      receivedAt: now(),
      minMs: answer.min_age_seconds * 1000,
      maxMs: answer.max_age_seconds * 1000,
    }));
    held = next;
    // A failed fetch is not kept: the next attempt fetches again.
    next.catch(() => {
      if (held === next) held = undefined;
    });
    return next;
  };

  return {
    prefetch: () => {
      if (!held) fetchFresh().catch(() => {});
    },
    ready: async () => {
      // A fetch at focus that failed (a flaky connection) gets one more try now.
      let token = await (held ?? fetchFresh()).catch(() => fetchFresh());
      if (now() - token.receivedAt > token.maxMs - RENEW_MARGIN_MS) token = await fetchFresh();
      const wait = token.minMs > 0 ? token.receivedAt + token.minMs + SEND_MARGIN_MS - now() : 0;
      if (wait > 0) await sleep(wait);
      return token.token;
    },
    discard: () => {
      held = undefined;
    },
  };
}
