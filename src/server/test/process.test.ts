import { describe, expect, it } from 'vitest';
import { retryOnTakenPort } from './process.ts';

describe('retryOnTakenPort', () => {
  it('starts again while a port was taken, and answers what the start that worked answered', async () => {
    let attempts = 0;
    const started = await retryOnTakenPort(async () => {
      if (++attempts < 3)
        throw Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:4000'), { code: 'EADDRINUSE' });
      return 'listening';
    });
    expect(started).toBe('listening');
    expect(attempts).toBe(3);
  });

  it('throws any other failure at once, and a taken port once the attempts are spent', async () => {
    let attempts = 0;
    await expect(
      retryOnTakenPort(async () => {
        attempts++;
        throw new Error('caddy exited (1): bad Caddyfile');
      }),
    ).rejects.toThrow('bad Caddyfile');
    expect(attempts).toBe(1);
    attempts = 0;
    await expect(
      retryOnTakenPort(async () => {
        attempts++;
        throw new Error('caddy exited (1): listen tcp :443: bind: address already in use');
      }, 2),
    ).rejects.toThrow('address already in use');
    expect(attempts).toBe(2);
  });
});
