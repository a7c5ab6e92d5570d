import { describe, expect, it } from 'vitest';
import {
  SLOW_DOWN_AFTER_ACCOUNT_FAILURES,
  SLOW_DOWN_MAX_MS,
  SLOW_DOWN_STEP_MS,
  signInDelayMs,
  signInKeys,
  twoFactorKeys,
} from './sign-in-limits.ts';

describe('signInDelayMs', () => {
  it('waits nothing up to the bound, then one step more per failure past it, up to the cap', () => {
    const at = (past: number) => signInDelayMs(SLOW_DOWN_AFTER_ACCOUNT_FAILURES + past);
    expect([at(-99), at(-1), at(0)]).toEqual([0, 0, 0]);
    expect([at(1), at(2), at(3)]).toEqual([SLOW_DOWN_STEP_MS, 2 * SLOW_DOWN_STEP_MS, 3 * SLOW_DOWN_STEP_MS]);
    expect([at(SLOW_DOWN_MAX_MS / SLOW_DOWN_STEP_MS), at(1_000_000)]).toEqual([SLOW_DOWN_MAX_MS, SLOW_DOWN_MAX_MS]);
  });
});

describe('signInKeys', () => {
  it('keeps pairs apart however the email and the IP split', () => {
    expect(signInKeys('a@b.c', '2001:db8::1').pair).not.toBe(signInKeys('1 a@b.c', '2001:db8::').pair);
    expect(signInKeys('a@b.c', '203.0.113.9')).toEqual({
      pair: 'login:pair:203.0.113.9 a@b.c',
      ip: 'login:ip:203.0.113.9',
      account: 'login:account:a@b.c',
    });
  });
});

describe('twoFactorKeys', () => {
  it('counts codes apart from passwords, per account id and IP', () => {
    const id = '6f9619ff-8b86-d011-b42d-00c04fc964ff';
    expect(twoFactorKeys(id, '203.0.113.9')).toEqual({
      pair: `2fa:pair:203.0.113.9 ${id}`,
      ip: '2fa:ip:203.0.113.9',
      account: `2fa:account:${id}`,
    });
    const password = Object.values(signInKeys('a@b.c', '203.0.113.9'));
    for (const key of Object.values(twoFactorKeys(id, '203.0.113.9'))) expect(password).not.toContain(key);
  });
});
