/**
 * A small deterministic random number generator (mulberry32): the same seed gives the same
 * numbers, so demo data is the same on every run and a failing random test can be replayed
 * from its seed. Not for anything secret. Numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
