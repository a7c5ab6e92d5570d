import { timingSafeEqual } from 'node:crypto';
import { newSecretToken } from './secret-token.ts';

/**
 * The first-run set-up link: while nobody has an account, start-up prints
 * `<PUBLIC_URL>/setup/<token>`, and whoever opens it creates the first owner. The token lives
 * in this process's memory only: it works until it is used or the process restarts (which
 * prints a new one). Each process of a multi-process deployment prints its own; the first
 * set-up wins, and every link stops working once an account exists.
 */
export class FirstRunLink {
  #token: string | undefined;

  /** A new token (the previous one stops working). */
  issue(): string {
    this.#token = newSecretToken();
    return this.#token;
  }

  accepts(token: string): boolean {
    const expected = this.#token;
    if (!expected) return false;
    const a = Buffer.from(token);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** Used: no later request may set up again with it. */
  consume(): void {
    this.#token = undefined;
  }

  get pending(): boolean {
    return this.#token !== undefined;
  }
}

export const setupPath = (token: string) => `/setup/${token}`;
