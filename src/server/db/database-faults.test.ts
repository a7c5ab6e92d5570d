import { describe, expect, it } from 'vitest';
import { databaseFault, isOverlapViolation } from './database-faults.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
// Drizzle wraps the driver's error as its cause.
const wrapped = (cause: unknown) => new Error('Failed query: insert into ...', { cause });

describe('databaseFault', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset socket', withCode('ECONNRESET')],
    ['every address refused (AggregateError)', Object.assign(new AggregateError([withCode('ECONNREFUSED')]), { code: 'ECONNREFUSED' })],
    ['admin shutdown (57P01), wrapped by Drizzle', wrapped(withCode('57P01', 'terminating connection due to administrator command'))],
    ['crash shutdown (57P02)', withCode('57P02')],
    ['starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['a connection exception (08006)', withCode('08006')],
    ['too many connections (53300)', withCode('53300')],
    ['a socket closed under a query', wrapped(new Error('Connection terminated unexpectedly'))],
    ['a pool connect timeout', new Error('timeout exceeded when trying to connect')],
  ])('maps %s to unavailable', (_, err) => {
    expect(databaseFault(err)).toBe('unavailable');
  });

  it.each([
    ['disk_full (53100)', wrapped(withCode('53100', 'could not extend file'))],
    ["PGlite's file system out of space", Object.assign(new Error(), { name: 'ErrnoError', errno: 51 })],
  ])('maps %s to disk_full', (_, err) => {
    expect(databaseFault(err)).toBe('disk_full');
  });

  it.each([
    ['a unique violation (23505)', wrapped(withCode('23505'))],
    ['a data exception (22001)', withCode('22001')],
    ['a syntax error (42601)', withCode('42601')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error', 'text'],
  ])('leaves %s alone', (_, err) => {
    expect(databaseFault(err)).toBeUndefined();
  });
});

describe('isOverlapViolation', () => {
  it('names a time another appointment took: the exclusion constraint or a deadlock, bare or wrapped by Drizzle', () => {
    const excluded = Object.assign(new Error('conflicting key value violates exclusion constraint'), { code: '23P01' });
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    expect(isOverlapViolation(excluded)).toBe(true);
    expect(isOverlapViolation(new Error('Failed query', { cause: deadlock }))).toBe(true);
    expect(isOverlapViolation(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isOverlapViolation(new Error('plain'))).toBe(false);
  });
});
