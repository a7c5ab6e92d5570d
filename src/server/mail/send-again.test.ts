import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.ts';
import { EMAIL_OFF, requireEmailOn } from './send-again.ts';

describe('requireEmailOn', () => {
  it('refuses (422) while no mail server is configured, and lets a message go again once one is', () => {
    let refused: unknown;
    try {
      requireEmailOn({ smtp: undefined });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 422, message: EMAIL_OFF });
    expect(() => requireEmailOn({ smtp: { host: 'mail.keystone.test' } as never })).not.toThrow();
  });
});
