import { describe, expect, it } from 'vitest';
import { DATE_RANGE_MESSAGE } from '#shared/constants';
import type { BoardQuery } from '#shared/schemas/pipeline-board';
import { encodeCursor } from './board-cursor.ts';
import { boardRequest } from './board.ts';

const me = '0b6e1f4a-2c3d-4e5f-8a9b-1c2d3e4f5a6b';
const stage = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
const zone = 'America/New_York';
const query = (q: Partial<BoardQuery> = {}) => ({ owner: undefined, ...q }) as BoardQuery;

describe('boardRequest', () => {
  it('reads the leads list’s filters, "me" and "none" as the owner', () => {
    expect(boardRequest(query({ owner: 'me' }), me, zone).filters).toMatchObject({ owner: me, timeZone: zone });
    expect(boardRequest(query({ owner: 'none' }), me, zone).filters).toMatchObject({ owner: null });
    expect(boardRequest(query({ owner: stage }), me, zone).filters).toMatchObject({ owner: stage });
    expect(boardRequest(query(), me, zone).filters).not.toHaveProperty('owner');
    expect(boardRequest(query({ created_from: '2026-11-01', created_to: '2026-11-30' }), me, zone).filters).toMatchObject({
      created_from: '2026-11-01',
      created_to: '2026-11-30',
    });
  });

  it('pages one column from a cursor the board handed out', () => {
    const at = { at: '2026-11-27T10:00:00.123456Z', id: stage };
    expect(boardRequest(query({ stage_id: stage, cursor: encodeCursor(at) }), me, zone)).toMatchObject({ stageId: stage, cursor: at });
    expect(boardRequest(query({ stage_id: stage }), me, zone)).not.toHaveProperty('cursor');
  });

  it('refuses a range ending before it starts, a campaign that is not one, and a cursor without its column or not the board’s', () => {
    const refused = (q: Partial<BoardQuery>) => {
      try {
        boardRequest(query(q), me, zone);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(refused({ created_from: '2026-11-30', created_to: '2026-11-01' })).toMatchObject({
      status: 400,
      fields: { created_to: DATE_RANGE_MESSAGE },
    });
    expect(refused({ origin: 'utm', origin_value: 'nonsense' })).toMatchObject({
      status: 400,
      fields: { origin_value: 'Invalid campaign' },
    });
    expect(refused({ cursor: encodeCursor({ at: '2026-11-27T10:00:00.123456Z', id: stage }) })).toMatchObject({
      status: 400,
      fields: { stage_id: 'Choose the stage to page' },
    });
    expect(refused({ stage_id: stage, cursor: 'abc' })).toMatchObject({ status: 400, fields: { cursor: 'Invalid cursor' } });
  });
});
