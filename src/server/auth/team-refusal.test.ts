import { describe, expect, it } from 'vitest';
import { TeamChangeRefused } from '../db/queries/team-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { teamRefusal } from './team-refusal.ts';

const answered = (err: unknown) => {
  try {
    teamRefusal(err);
  } catch (error) {
    return error;
  }
};

describe('teamRefusal', () => {
  it('answers what is not there 404 and any other refusal 409, with its message', () => {
    const gone = answered(new TeamChangeRefused('not_found', 'No such member.')) as AppError;
    expect(gone).toBeInstanceOf(AppError);
    expect({ status: gone.status, message: gone.message }).toEqual({ status: 404, message: 'No such member.' });
    const last = answered(new TeamChangeRefused('conflict', 'The team must keep at least one active owner.')) as AppError;
    expect({ status: last.status, message: last.message }).toEqual({
      status: 409,
      message: 'The team must keep at least one active owner.',
    });
  });

  it('throws anything else as it was', () => {
    const other = new Error('connection reset');
    expect(answered(other)).toBe(other);
  });
});
