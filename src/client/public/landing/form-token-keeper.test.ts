import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '#client/lib/api-client.ts';
import { formTokenKeeper, isFormTokenRefused } from './form-token-keeper.ts';

const DAY = 86_400;

/** A keeper on a clock the test moves; each fetch hands out token-1, token-2, … */
function setup(minAgeSeconds = 2) {
  let clock = 1_000_000;
  let issued = 0;
  const fetchToken = vi.fn(async () => ({ form_token: `token-${++issued}`, min_age_seconds: minAgeSeconds, max_age_seconds: DAY }));
  const sleep = vi.fn(async (ms: number) => {
    clock += ms;
  });
  const keeper = formTokenKeeper({ fetchToken, now: () => clock, sleep });
  return { keeper, fetchToken, sleep, advance: (ms: number) => (clock += ms) };
}

describe('formTokenKeeper', () => {
  it('fetches once at first focus, and a form sent later goes without waiting', async () => {
    const { keeper, fetchToken, sleep, advance } = setup();
    keeper.prefetch();
    keeper.prefetch();
    await Promise.resolve();
    advance(30_000); // the visitor types
    expect(await keeper.ready()).toBe('token-1');
    expect(await keeper.ready()).toBe('token-1');
    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('waits out the rest of the minimum age (and a margin) for a quick visitor', async () => {
    const { keeper, sleep, advance } = setup(2);
    keeper.prefetch();
    await Promise.resolve();
    advance(800); // autofill
    expect(await keeper.ready()).toBe('token-1');
    expect(sleep).toHaveBeenCalledWith(2_000 + 500 - 800);
  });

  it('does not wait when the time trap is off', async () => {
    const { keeper, sleep } = setup(0);
    expect(await keeper.ready()).toBe('token-1');
    expect(sleep).not.toHaveBeenCalled();
  });

  it('replaces a token about to expire (a page left open) and waits the minimum for the new one', async () => {
    const { keeper, fetchToken, sleep, advance } = setup(2);
    keeper.prefetch();
    await Promise.resolve();
    advance(DAY * 1000 - 5 * 60_000);
    expect(await keeper.ready()).toBe('token-2');
    expect(fetchToken).toHaveBeenCalledTimes(2);
    expect(sleep).toHaveBeenCalledWith(2_500);
  });

  it('fetches a new token after one was refused or a fetch failed', async () => {
    const { keeper, fetchToken } = setup(0);
    fetchToken.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    keeper.prefetch();
    await expect(keeper.ready()).resolves.toBe('token-1');
    keeper.discard();
    expect(await keeper.ready()).toBe('token-2');
  });

  it('recognises the server refusing the token, and only that', () => {
    const refused = new ApiError(400, 'This form has expired.', 'validation_failed', { form_token: 'This form has expired.' });
    expect(isFormTokenRefused(refused)).toBe(true);
    expect(isFormTokenRefused(new ApiError(400, 'Invalid', 'validation_failed', { email: 'Invalid email address' }))).toBe(false);
    expect(isFormTokenRefused(new TypeError('Failed to fetch'))).toBe(false);
  });
});
