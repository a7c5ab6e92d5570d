import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GroupCommit } from './group-commit.ts';

// Waits and write times are the subject: fake timers run them (setTimeout and setImmediate) at once.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs every timer (each write's wait, each slow write) until nothing is left, then answers `answer`. */
async function settled<T>(answer: Promise<T>): Promise<T> {
  await vi.runAllTimersAsync();
  return answer;
}

describe('GroupCommit', () => {
  it('writes items that arrive together in one batch, and answers after the write', async () => {
    const writes: number[][] = [];
    let committed = false;
    const gc = new GroupCommit<number>(
      async (items) => {
        writes.push(items);
        await new Promise((r) => setTimeout(r, 10));
        committed = true;
      },
      { maxBatch: 100, maxWaitMs: 5, maxInFlight: 1 },
    );
    const answers = [1, 2, 3].map((n) => gc.add(n).then(() => committed));
    expect(await settled(Promise.all(answers))).toEqual([true, true, true]);
    expect(writes).toEqual([[1, 2, 3]]);
  });

  it('splits at maxBatch and never runs more than maxInFlight writes at once', async () => {
    let running = 0;
    let most = 0;
    const sizes: number[] = [];
    const gc = new GroupCommit<number>(
      async (items) => {
        running++;
        most = Math.max(most, running);
        sizes.push(items.length);
        await new Promise((r) => setTimeout(r, 5));
        running--;
      },
      { maxBatch: 10, maxWaitMs: 2, maxInFlight: 2 },
    );
    await settled(Promise.all(Array.from({ length: 45 }, (_, i) => gc.add(i))));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(45);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
    expect(most).toBeLessThanOrEqual(2);
    expect(gc.pending).toBe(0);
  });

  it('rejects every caller of a failed write, and later writes still work', async () => {
    let fail = true;
    const gc = new GroupCommit<number>(
      async () => {
        if (fail) throw new Error('disk full');
      },
      { maxBatch: 10, maxWaitMs: 1, maxInFlight: 1 },
    );
    const results = await settled(Promise.allSettled([gc.add(1), gc.add(2)]));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(settled(gc.add(3))).resolves.toBeUndefined();
  });

  it('with maxWaitMs 0, batches what arrives in one turn, then what queued while a write was in flight', async () => {
    const writes: number[][] = [];
    const gc = new GroupCommit<number>(
      async (items) => {
        writes.push(items);
        await new Promise((r) => setTimeout(r, 20));
      },
      { maxBatch: 100, maxWaitMs: 0, maxInFlight: 1 },
    );
    const first = [1, 2].map((n) => gc.add(n));
    await vi.advanceTimersByTimeAsync(5); // the first write is in flight now
    const later = [3, 4, 5].map((n) => gc.add(n));
    await settled(Promise.all([...first, ...later]));
    expect(writes).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('rejects only the caller whose item makes a write fail; the rest of its batch is written and answered', async () => {
    const written: number[] = [];
    let writes = 0;
    const gc = new GroupCommit<number>(
      async (items) => {
        writes++;
        if (items.includes(13) || items.includes(77)) throw new Error(`bad item in ${items.length}`);
        written.push(...items);
      },
      { maxBatch: 1000, maxWaitMs: 0, maxInFlight: 1 },
    );
    const results = await settled(Promise.allSettled(Array.from({ length: 100 }, (_, i) => gc.add(i))));
    const rejected = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
    expect(rejected).toEqual([13, 77]);
    expect((results[13] as PromiseRejectedResult).reason).toEqual(new Error('bad item in 1'));
    expect(written.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i).filter((i) => i !== 13 && i !== 77));
    // Halving: a bad item costs about two writes per level (log2 100 ≈ 7), not one write per item.
    expect(writes).toBeLessThanOrEqual(1 + 2 * 2 * 7);
  });

  it('an error that isolates nothing (the database is down) rejects the whole batch after one write', async () => {
    let writes = 0;
    const gc = new GroupCommit<number>(
      async () => {
        writes++;
        throw new Error('connection refused');
      },
      { maxBatch: 100, maxWaitMs: 0, maxInFlight: 1, isolates: (err) => !String(err).includes('connection refused') },
    );
    const results = await settled(Promise.allSettled(Array.from({ length: 50 }, (_, i) => gc.add(i))));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(writes).toBe(1);
  });

  it('retries the halves in the same write slot: never more than maxInFlight writes at once', async () => {
    let running = 0;
    let most = 0;
    const gc = new GroupCommit<number>(
      async (items) => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 1));
        running--;
        if (items.includes(5)) throw new Error('bad');
      },
      { maxBatch: 16, maxWaitMs: 0, maxInFlight: 1 },
    );
    const results = await settled(Promise.allSettled(Array.from({ length: 40 }, (_, i) => gc.add(i))));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect(most).toBe(1);
  });
});
