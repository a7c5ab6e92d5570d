import { describe, expect, it } from 'vitest';
import { LeadUpdateRefused } from '../db/queries/leads-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { leadRefusal } from './lead-refusal.ts';

describe('leadRefusal', () => {
  it('answers a refused change 400 on its field, with its message', () => {
    const refused = new LeadUpdateRefused('owner_id', 'That person cannot take leads.');
    const answered = (() => {
      try {
        leadRefusal(refused);
      } catch (error) {
        return error;
      }
    })();
    expect(answered).toBeInstanceOf(AppError);
    expect({
      status: (answered as AppError).status,
      message: (answered as AppError).message,
      fields: (answered as AppError).fields,
    }).toEqual({
      status: 400,
      message: 'That person cannot take leads.',
      fields: { owner_id: 'That person cannot take leads.' },
    });
  });

  it('throws anything else as it was', () => {
    const other = new Error('connection reset');
    expect(() => leadRefusal(other)).toThrow(other);
  });
});
