/**
 * busyFromIcs (ics-busy.ts) off the server's event loop: a calendar's text comes from outside,
 * and reading a large or hostile one is seconds of synchronous work inside ical.js, where no
 * budget of ours reaches every loop. It runs in a worker thread (ics-worker.ts), held to a time
 * limit (the thread is terminated when it passes) and a memory limit; either, or a thread that
 * dies, is an IcsError for the caller, in plain words.
 *
 * One thread, started at the first read and kept for the next ones: reads queue for it, so
 * calendars never take more than one core, and each read's time limit starts when the thread
 * takes it. A terminated thread is replaced at the next read. The thread is `unref`ed: an idle
 * reader never keeps the process alive.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Busy } from '../lib/busy-times.ts';
import type { IcsBusy, IcsBusyOptions } from './ics-busy.ts';
import { IcsError } from './ics-error.ts';

// The error a read rejects with, from a module without ical.js: importing it from ics-busy.ts
// loads ical.js into the importing thread.
export { IcsError };

export const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * Twice the old generation the largest accepted calendar needs (docs/performance.md, "Measurements behind the code"):
 * a calendar needing more is refused, rather than the server's memory spent on it.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 32 };
/** The worker's place in a build, from the build's root (scripts/build-server.mjs); read-ics.test.ts holds the two together. */
export const WORKER_IN_BUILD = 'calendars/ics-worker.js';

export type IcsRequest = { id: number; text: string; window: Busy; options: IcsBusyOptions };
export type IcsReply = { id: number; read?: IcsBusy; error?: { name: string; message: string } };

type Job = { request: Omit<IcsRequest, 'id'>; timeoutMs: number; resolve: (read: IcsBusy) => void; reject: (error: Error) => void };
type Running = { job: Job; id: number; worker: Worker; timer: NodeJS.Timeout };

const TOO_LONG =
  'The calendar took too long to read; it may be too large or repeat too often. Try again later, or ask for a smaller calendar.';
const TOO_LARGE = 'The calendar could not be read: it needs more memory than a calendar may use.';
const STOPPED = 'The calendar could not be read: its reader stopped before the end. Try again.';

const queue: Job[] = [];
let reader: Worker | undefined;
let running: Running | undefined;
let lastId = 0;

/**
 * The busy times of a calendar's text within `window`, read in the worker thread (see above).
 * Rejects with IcsError when the text is not a calendar, or its read took longer than
 * `timeoutMs` (10 s by default) or more memory than allowed.
 */
export function readIcsBusy(text: string, window: Busy, options: IcsBusyOptions & { timeoutMs?: number }): Promise<IcsBusy> {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, ...busyOptions } = options;
  return new Promise((resolve, reject) => {
    queue.push({ request: { text, window, options: busyOptions }, timeoutMs, resolve, reject });
    next();
  });
}

/** Terminates the reader thread (a read under way rejects with IcsError); the next read starts another. */
export async function stopIcsReader(): Promise<void> {
  const worker = reader;
  reader = undefined;
  if (worker) await worker.terminate();
}

function next(): void {
  if (running || queue.length === 0) return;
  const job = queue.shift()!;
  let worker: Worker;
  try {
    worker = reader ?? (reader = startReader());
  } catch (error) {
    job.reject(error as Error);
    return next();
  }
  const id = ++lastId;
  const timer = setTimeout(() => {
    // The thread may be deep in ical.js: only terminating it stops it.
    if (reader === worker) reader = undefined;
    void worker.terminate();
    finish(id, new IcsError(TOO_LONG));
  }, job.timeoutMs);
  running = { job, id, worker, timer };
  worker.postMessage({ id, ...job.request } satisfies IcsRequest);
}

/** Settles the running read `id` with its answer or error, and hands the thread the next one. */
function finish(id: number, outcome: IcsBusy | Error): void {
  if (running?.id !== id) return;
  const { job, timer } = running;
  clearTimeout(timer);
  running = undefined;
  if (outcome instanceof Error) job.reject(outcome);
  else job.resolve(outcome);
  next();
}

/**
 * Run from the TypeScript sources (Vitest, tsx), the thread compiles them through tsx too.
 * `execArgv: ['--import', 'tsx']` does not do it: tsx registers itself only on the main thread
 * (Node 20.20), so the thread registers tsx's hooks through its API, then loads the worker.
 */
const FROM_SOURCE = `const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.worker); });`;

function startReader(): Worker {
  const { url, fromSource } = workerFile();
  const options = { execArgv: [], resourceLimits: RESOURCE_LIMITS };
  const worker = fromSource
    ? new Worker(FROM_SOURCE, { ...options, eval: true, workerData: { tsx: import.meta.resolve('tsx/esm/api'), worker: url.href } })
    : new Worker(url, options);
  /** The thread is gone: the read it held fails, and the next read starts another. */
  const lost = (error: Error) => {
    if (reader === worker) reader = undefined;
    if (running?.worker === worker) finish(running.id, error);
  };
  worker.on('message', ({ id, read, error }: IcsReply) => {
    if (read) return finish(id, read);
    const Kind = error?.name === 'IcsError' ? IcsError : error?.name === 'RangeError' ? RangeError : Error;
    finish(id, new Kind(error?.message ?? STOPPED));
  });
  worker.on('error', (error: Error & { code?: string }) =>
    lost(new IcsError(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? TOO_LARGE : STOPPED)),
  );
  worker.on('exit', () => lost(new IcsError(STOPPED)));
  // After the listeners: a 'message' listener takes the thread's reference again. A read under
  // way keeps the process alive by its timer.
  worker.unref();
  return worker;
}

let found: { url: URL; fromSource: boolean } | undefined;

/**
 * Where the worker's code is: beside this file when it runs from the sources; in a build, where
 * esbuild bundled this file into main.js or cli/<tool>.js, at WORKER_IN_BUILD from the build's
 * root, which is this file's folder or the one above it.
 */
function workerFile(): { url: URL; fromSource: boolean } {
  if (found) return found;
  if (import.meta.url.endsWith('.ts')) return (found = { url: new URL('./ics-worker.ts', import.meta.url), fromSource: true });
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const root of [here, path.dirname(here)]) {
    const file = path.join(root, WORKER_IN_BUILD);
    if (existsSync(file)) return (found = { url: pathToFileURL(file), fromSource: false });
  }
  throw new Error(`The calendar reader is missing from the build: no ${WORKER_IN_BUILD} in ${here} or above it (npm run build:server).`);
}
