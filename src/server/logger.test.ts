import { describe, expect, it } from 'vitest';
import { chooseLogFormat, createLogger, humanLine } from './logger.ts';
import { redactPath } from './logger.ts';

describe('redactPath', () => {
  it('hides the token of a calendar feed and of a booking link, in the page and API paths', () => {
    expect(redactPath('/api/calendar/abc_DEF-123/appointments.ics')).toBe('/api/calendar/***/appointments.ics');
    expect(redactPath('/booking/Zm9vYmFyYmF6')).toBe('/booking/***');
    expect(redactPath('/api/public/bookings/Zm9vYmFyYmF6')).toBe('/api/public/bookings/***');
    // A held booking's confirmation link: the token and the code.
    expect(redactPath('/booking/Zm9vYmFyYmF6/confirm/c2VjcmV0Y29kZQ')).toBe('/booking/***');
    expect(redactPath('/api/public/bookings/Zm9vYmFyYmF6/confirm')).toBe('/api/public/bookings/***/confirm');
  });

  it('leaves paths without a secret as they are', () => {
    for (const path of ['/', '/api/public/bookings', '/api/public/availability', '/booking', '/api/leads/7f1c', '/dashboard/calendar']) {
      expect(redactPath(path)).toBe(path);
    }
  });
});

describe('log format', () => {
  it('is JSON when the output is not a terminal, lines for people in one, and LOG_FORMAT decides when set', () => {
    expect(chooseLogFormat(undefined, false)).toBe('json');
    expect(chooseLogFormat(undefined, true)).toBe('pretty');
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });

  function written(format: 'json' | 'pretty', log: (logger: ReturnType<typeof createLogger>) => void) {
    const lines: string[] = [];
    const logger = createLogger('info', format, { write: (text: string) => lines.push(text) });
    log(logger);
    return lines.join('');
  }

  it('writes one JSON object a line in json format, the secret part of a path redacted', () => {
    const out = written('json', (l) => l.info({ method: 'GET', path: '/booking/SECRET', status: 200, ms: 1.5 }, 'request'));
    const entry = JSON.parse(out) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 30, msg: 'request', method: 'GET', path: '/booking/***', status: 200 });
    expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('writes a request as one readable line in pretty format, still redacted', () => {
    const out = written('pretty', (l) =>
      l.info({ requestId: 'r1', method: 'GET', path: '/booking/SECRET', status: 404, ms: 2.5, ip: '127.0.0.1' }, 'request'),
    );
    expect(out).toMatch(/^\d\d:\d\d:\d\d INFO {2}GET \/booking\/\*\*\* 404 2\.5 ms requestId=r1 ip=127\.0\.0\.1\n$/);
    expect(out).not.toContain('SECRET');
    expect(out).not.toContain('{');
  });

  it('makes the first-run link and the ready line stand out, framed on lines of their own', () => {
    const out = written('pretty', (l) => {
      l.warn(
        { event: 'first_run', setupUrl: 'http://127.0.0.1:3000/setup#abc' },
        'No admin yet: open http://127.0.0.1:3000/setup#abc to create the first owner.',
      );
      l.info({ event: 'ready', url: 'http://127.0.0.1:3000' }, 'ready: open http://127.0.0.1:3000/ (the site)');
    });
    const lines = out.split('\n');
    const link = lines.indexOf('  No admin yet: open http://127.0.0.1:3000/setup#abc to create the first owner.');
    expect(link).toBeGreaterThan(0);
    expect(lines[link - 1]).toMatch(/^─{20,}$/);
    expect(lines[link + 1]).toMatch(/^─{20,}$/);
    expect(lines).toContain('  ready: open http://127.0.0.1:3000/ (the site)');
  });

  it('shows other fields as key=value, a warning labelled, an error with its message indented below', () => {
    const out = written('pretty', (l) => {
      l.warn({ event: 'email_not_sent', emailId: 'e1', reason: 'no server' }, 'an email was not sent');
      l.error({ err: new Error('boom') }, 'failed');
    });
    expect(out).toMatch(/WARN {2}an email was not sent event=email_not_sent emailId=e1 reason="no server"\n/);
    expect(out).toMatch(/ERROR failed\n {4}Error: boom\n {8}at /);
  });

  it('passes a line that is not JSON through unchanged', () => {
    expect(humanLine('plain text')).toBe('plain text\n');
  });
});
