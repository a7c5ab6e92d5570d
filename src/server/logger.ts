import { writeSync } from 'node:fs';
import pino from 'pino';

/**
 * Paths whose secret part is a credential: a calendar feed (`/api/calendar/<token>/appointments.ics`,
 * polled by calendar apps every few minutes) and a booking's private link (`/booking/<token>`,
 * `/api/public/bookings/<token>`, which can move or cancel the call; `/booking/<token>/confirm/<code>`
 * confirms a held booking). Logs keep the path
 * without it, so a log reader can neither subscribe to the appointments nor change a booking.
 */
const SECRET_PATHS: [RegExp, string][] = [
  [/^\/api\/calendar\/[^/?]+/, '/api/calendar/***'],
  [/^\/api\/public\/bookings\/[^/?]+/, '/api/public/bookings/***'],
  // The page of a booking's emailed confirmation link too: /booking/<token>/confirm/<code>.
  [/^\/booking\/[^?]+/, '/booking/***'],
];

export const redactPath = (path: string) => SECRET_PATHS.reduce((p, [pattern, replacement]) => p.replace(pattern, replacement), path);

/** How log lines are written: JSON (one object a line, for collectors) or lines for people. */
export type LogFormat = 'json' | 'pretty';

/**
 * JSON when the output is not a terminal (a file, journald, a collector) or LOG_FORMAT=json;
 * lines for people in a terminal, or with LOG_FORMAT=pretty.
 */
export const chooseLogFormat = (configured: LogFormat | undefined, isTerminal: boolean): LogFormat =>
  configured ?? (isTerminal ? 'pretty' : 'json');

/**
 * JSON lines to stdout (fd 1), each written at once. Once nobody reads them (EPIPE: the reader
 * of the pipe, a supervisor's log collector, is gone) they are dropped: the server must go on
 * serving and still stop on SIGTERM, where pino's own destination retried that write forever
 * and never exited.
 */
export function stdoutLines(fd = 1): { write: (line: string) => void } {
  let gone = false;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  return {
    write(line: string) {
      let rest = Buffer.from(line);
      // A full pipe (EAGAIN, were fd 1 non-blocking) gets a second to drain; the line is then dropped.
      for (let waits = 0; !gone && rest.length > 0 && waits < 1000; ) {
        try {
          rest = rest.subarray(writeSync(fd, rest));
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EPIPE') gone = true;
          else if (code === 'EAGAIN') {
            Atomics.wait(pause, 0, 0, 1);
            waits++;
          } else throw err;
        }
      }
    },
  };
}

/** Structured logs on stdout: JSON lines, or lines for people (`humanLine`) when `format` is 'pretty'. */
export function createLogger(level: string, format: LogFormat = 'json', out: { write: (text: string) => unknown } = process.stdout) {
  const color = format === 'pretty' && out === process.stdout && process.stdout.isTTY === true && !process.env.NO_COLOR;
  const destination =
    format === 'pretty' ? { write: (line: string) => out.write(humanLine(line, { color })) } : out === process.stdout ? stdoutLines() : out;
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      // Every line with a `path` (the request log's) goes out with its secret part redacted.
      log: (object) => (typeof object.path === 'string' ? { ...object, path: redactPath(object.path) } : object),
    },
  };
  return pino(options, destination as pino.DestinationStream);
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLORS: Record<number, string> = { 40: '33', 50: '31', 60: '31' };
/** The lines a person starting the server must not miss: how to sign in the first time, and where it is. */
const STANDOUT = new Set(['first_run', 'ready']);

/**
 * One JSON log line as a line for people: `14:05:09 INFO  message key=value …`. A request reads
 * `GET /path 200 3.1 ms`; the first-run set-up link and the ready line stand out (framed, and in
 * colour in a terminal). A line that is not JSON passes through as it is.
 */
export function humanLine(json: string, { color = false }: { color?: boolean } = {}): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const { time, level, msg, err, ...rest } = entry;
  const event = rest.event;
  const paint = (code: string | undefined, text: string) => (color && code ? `\u001b[${code}m${text}\u001b[0m` : text);
  const clock = typeof time === 'string' ? time.slice(11, 19) : '';
  const levelNumber = typeof level === 'number' ? level : 30;
  const label = paint(LEVEL_COLORS[levelNumber], (LEVELS[levelNumber] ?? String(level)).padEnd(5));
  let text: string;
  if (msg === 'request' && typeof rest.method === 'string') {
    const { method, path, status, ms, ...others } = rest;
    text = `${String(method)} ${String(path)} ${String(status)} ${String(ms)} ms${fields(others)}`;
  } else {
    text = `${typeof msg === 'string' ? msg : ''}${fields(rest)}`;
  }
  if (err && typeof err === 'object') {
    const e = err as { message?: unknown; stack?: unknown };
    text += `\n    ${String(typeof e.stack === 'string' ? e.stack : e.message)
      .split('\n')
      .join('\n    ')}`;
  }
  if (typeof event === 'string' && STANDOUT.has(event)) {
    const rule = '─'.repeat(Math.min(72, Math.max(20, (typeof msg === 'string' ? msg.length : 0) + 4)));
    return `\n${rule}\n  ${paint('1', typeof msg === 'string' ? msg : '')}\n${rule}\n\n`;
  }
  return `${clock} ${label} ${text}\n`;
}

/** ` key=value` for each field, quoted where it holds a space; objects as JSON. */
function fields(values: Record<string, unknown>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      const s = typeof v === 'string' ? v : JSON.stringify(v);
      return ` ${k}=${typeof v === 'string' && /\s/.test(s) ? JSON.stringify(s) : s}`;
    })
    .join('');
}
