import fc from 'fast-check';

/**
 * fast-check arbitraries for hostile requests: wrong types, huge and odd strings, deep JSON,
 * SQL and script payloads, invalid dates, negative and non-finite numbers.
 * https://owasp.org/www-project-web-security-testing-guide/ (input validation testing)
 */

/** Strings an attacker or a broken client sends, known to break naive code. */
export const PAYLOADS = [
  "' OR '1'='1",
  "'; drop table leads; --",
  '1; select pg_sleep(5)',
  '%',
  '_',
  '\\',
  'a\\',
  '%\\%_',
  '<script>window.__xss=1</script>',
  '<img src=x onerror=window.__xss=1>',
  'javascript:window.__xss=1',
  '=HYPERLINK("http://evil.example")',
  '+1-555',
  '@SUM(A1)',
  '\t=1',
  '${7*7}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202eevil',
  '\ufeff',
  '🏠🏚️👨‍👩‍👧',
  'Zoë Ñúñez 李雷 محمد',
  '\r\n\r\nX-Injected: 1',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '-0',
  '1e309',
  '9007199254740993',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '-0001-01-01',
  '99999-01-01',
  '2026-1-1',
  '1899-12-31',
  '2026-07-04T10:00:00Z',
  '24:00',
  '23:60',
  '-01:00',
  '9:5',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  ' ',
  '',
] as const;

/**
 * Text around a lone surrogate: valid in JavaScript, not encodable in UTF-8, so "/x\ud800" and
 * "/x\udbff" are two strings in Node and one in PostgreSQL.
 */
export const loneSurrogateString = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff'), fc.string({ maxLength: 12 }))
  .map(([before, lone, after]) => before + lone + after);

const oddString = fc.oneof(
  fc.constantFrom(...PAYLOADS),
  loneSurrogateString,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  // Longer than every field limit (5000) but under the 64 KB body limit, and over it.
  fc.constantFrom(201, 5001, 20_000, 70_000).map((n) => 'x'.repeat(n)),
  fc.constantFrom(201, 2000).map((n) => '😀'.repeat(n)),
);

export const hostileString = oddString;

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(-1, -0, 0, 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 0.5),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, nested at most a few levels. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    oddString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'id', 'status'), fc.string({ maxLength: 8 })), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** JSON nested far deeper than any schema: arrays or objects, a few thousand levels. */
export const deepJson = fc
  .tuple(fc.constantFrom(50, 1000, 20_000), fc.boolean())
  .map(([depth, arrays]) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

/** A raw body that is not what the endpoint expects at all. */
export const rawGarbage = fc.oneof(
  fc.constantFrom(
    '',
    'null',
    'true',
    '[]',
    '"text"',
    '{',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    'NaN',
    '\u0000',
    '\ufeff{}',
    '<xml/>',
    'a=1&b=2',
  ),
  fc.string({ maxLength: 60 }),
  deepJson,
);

/**
 * How to spoil a valid body: some fields get hostile values, some are dropped, unknown ones
 * are added. Applied to a body built at request time (it may name rows that exist then), it
 * reaches past the first validation error into the handlers.
 */
export type BodyMutation = { replace: [string, unknown][]; drop: string[]; extra: [string, unknown][] };

export function bodyMutation(keys: readonly string[]): fc.Arbitrary<BodyMutation> {
  const some = (names: readonly string[]) => fc.array(fc.tuple(fc.constantFrom(...names), hostileValue), { maxLength: 3 });
  return fc.record({
    replace: keys.length ? some(keys) : fc.constant([]),
    drop: fc.subarray([...keys], { maxLength: 2 }),
    extra: fc.array(
      fc.tuple(fc.constantFrom('status', 'id', 'created_at', 'user_id', 'lead', '__proto__', 'submission_id', 'contacted'), hostileValue),
      { maxLength: 2 },
    ),
  });
}

export function applyMutation(valid: Record<string, unknown>, { replace, drop, extra }: BodyMutation): Record<string, unknown> {
  const body: Record<string, unknown> = { ...valid };
  for (const key of drop) delete body[key];
  // defineProperty, so that a key named __proto__ becomes a plain JSON key.
  for (const [k, v] of [...extra, ...replace])
    Object.defineProperty(body, k, { value: v, enumerable: true, configurable: true, writable: true });
  return body;
}

/** Header values a client can put on the wire (visible Latin-1, no CR/LF/NUL). */
export const headerValue = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '*/*',
    'text/html',
    'application/json; charset=utf-7',
    'multipart/form-data; boundary=x',
    "' OR 1=1 --",
    '<script>',
    '../..',
    '1.2.3.4, 5.6.7.8',
    'https',
    'evil.example',
    'bytes=0-1',
  ),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 }),
  fc.string({ unit: fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
);

export const hostileHeaderNames = [
  'accept',
  'accept-language',
  'user-agent',
  'referer',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'content-type',
  'if-none-match',
  'range',
  'x-request-id',
  'last-event-id',
  'sec-fetch-site',
] as const;
