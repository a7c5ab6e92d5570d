import { describe, expect, it } from 'vitest';
import type { BoardColumn, PipelineBoard } from '#shared/schemas/pipeline-board';
import { moveCard } from './board-move.ts';

const card = (id: string, fee: number | null) => ({
  id,
  full_name: id,
  estimated_fee_cents: fee,
  owner: null,
  next_step: null,
  stage_entered_at: '2026-01-01T00:00:00.000Z',
});
const column = (
  id: string,
  status: BoardColumn['stage']['status'],
  probability: number | null,
  cards: ReturnType<typeof card>[],
): BoardColumn => {
  const fees = cards.reduce((s, c) => s + (c.estimated_fee_cents ?? 0), 0);
  return {
    stage: { id, name: id, status, probability },
    count: cards.length,
    fees_cents: fees,
    weighted_cents: Math.round((fees * (probability ?? 0)) / 100),
    cards: status === 'New' || status === 'Contacted' ? cards : [],
    next_cursor: null,
  };
};
const board: PipelineBoard = {
  columns: [
    column('new', 'New', 10, [card('a', 333), card('b', 333), card('c', 333)]),
    column('call', 'Contacted', 25, [card('d', 1)]),
    column('won', 'Converted', null, [card('w', 500)]),
  ],
  expected_fees_cents: 100,
};

describe('moveCard', () => {
  it('moves the card to the top of its new column, with the counts, fees and the exact forecast', () => {
    const now = new Date('2026-02-01T00:00:00Z');
    const after = moveCard(board, 'b', 'call', now);
    expect(after.columns.map((c) => [c.count, c.fees_cents, c.weighted_cents, c.cards.map((x) => x.id)])).toEqual([
      [2, 666, 67, ['a', 'c']],
      [2, 334, 84, ['b', 'd']],
      [1, 500, 0, []],
    ]);
    expect(after.columns[1]!.cards[0]!.stage_entered_at).toBe(now.toISOString());
    // 66.6 + 83.5 = 150.1
    expect(after.expected_fees_cents).toBe(150);
  });

  it('counts a deal into a collapsed stage without listing it, and leaves the board as it is for an unknown card or the same stage', () => {
    const won = moveCard(board, 'd', 'won');
    expect(won.columns[2]).toMatchObject({ count: 2, fees_cents: 501, cards: [] });
    expect(won.expected_fees_cents).toBe(100);
    expect(moveCard(board, 'zzz', 'won')).toBe(board);
    expect(moveCard(board, 'a', 'new')).toBe(board);
  });
});
