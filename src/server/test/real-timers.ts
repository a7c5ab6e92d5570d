import { afterAll, vi } from 'vitest';

/*
 * Vitest setup file: a test file that ends with the clock still faked, or with a timer function
 * still replaced, fails here, and the real ones come back. A spy left on a faked timer is
 * restored by Vitest only after its file's hooks, so the file after it is the one that fails,
 * and the message says so. The unit and API projects share one module cache and one global
 * scope across the files a worker runs (vitest.config.ts), so without this such a file makes a
 * later one fail in a way that depends on the order: a `setInterval` that never fires.
 */
const TIMERS = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'Date'] as const;
type Timers = Pick<typeof globalThis, (typeof TIMERS)[number]>;

const key = Symbol.for('crm.test.realTimers');
const shared = globalThis as { [key]?: Timers };
// The first file of the worker sees the real ones; every later file compares with those.
const real: Timers = (shared[key] ??= Object.fromEntries(TIMERS.map((name) => [name, globalThis[name]])) as Timers);

afterAll(() => {
  const faked = vi.isFakeTimers();
  if (faked) vi.useRealTimers();
  const replaced = TIMERS.filter((name) => globalThis[name] !== real[name]);
  for (const name of replaced) Object.assign(globalThis, { [name]: real[name] });
  if (faked || replaced.length > 0) {
    throw new Error(
      `${faked ? 'Fake timers were left on' : `${replaced.join(', ')} left replaced`} by this file, or by the file before it ` +
        'in this worker through a spy on a faked timer (restored after that file ended, it puts the fake back). Restore ' +
        'them in afterEach: vi.restoreAllMocks() before vi.useRealTimers(). Later files share the global scope.',
    );
  }
});
