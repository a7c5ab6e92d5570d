import type { BoardCard, PipelineBoard } from '#shared/schemas/pipeline-board';

/**
 * The board as it will be once `cardId` is in `toStageId`: the card on top of its new column (if
 * that column shows cards), the two columns' counts, fees and weighted fees, and the forecast.
 * The forecast stays exact: Σ over leads of fee × p equals Σ over columns of p × the column's fees.
 */
export function moveCard(board: PipelineBoard, cardId: string, toStageId: string, now = new Date()): PipelineBoard {
  const from = board.columns.find((c) => c.cards.some((card) => card.id === cardId));
  const card = from?.cards.find((c) => c.id === cardId);
  if (!from || !card || from.stage.id === toStageId) return board;
  const fee = card.estimated_fee_cents ?? 0;
  const moved: BoardCard = { ...card, stage_entered_at: now.toISOString() };
  const columns = board.columns.map((column) => {
    if (column.stage.id === from.stage.id) {
      const fees = column.fees_cents - fee;
      return {
        ...column,
        count: column.count - 1,
        fees_cents: fees,
        weighted_cents: weighted(fees, column.stage.probability),
        cards: column.cards.filter((c) => c.id !== cardId),
      };
    }
    if (column.stage.id === toStageId) {
      const fees = column.fees_cents + fee;
      const open = column.stage.status === 'New' || column.stage.status === 'Contacted';
      return {
        ...column,
        count: column.count + 1,
        fees_cents: fees,
        weighted_cents: weighted(fees, column.stage.probability),
        cards: open || column.cards.length > 0 ? [moved, ...column.cards] : column.cards,
      };
    }
    return column;
  });
  const expected = Math.round(columns.reduce((sum, c) => sum + c.fees_cents * (c.stage.probability ?? 0), 0) / 100);
  return { columns, expected_fees_cents: expected };
}

const weighted = (fees: number, probability: number | null) => Math.round((fees * (probability ?? 0)) / 100);
