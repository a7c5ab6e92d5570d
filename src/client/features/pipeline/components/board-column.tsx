import { useDroppable } from '@dnd-kit/core';
import { useEffect, useState } from 'react';
import type { BoardCard as Card, BoardColumn as Column } from '#shared/schemas/pipeline-board';
import { Button } from '#client/components/ui/button.tsx';
import { formatCents } from '#client/lib/money.ts';
import { useColumnPages, type BoardFilters } from '../api/get-board.ts';
import { BoardCard } from './board-card.tsx';
import type { MenuStage } from './move-to-menu.tsx';

type Props = {
  column: Column;
  filters: BoardFilters;
  stages: MenuStage[];
  draggable: boolean;
  onMove: (card: Card, fromStageId: string, toStageId: string) => void;
  /** Show the cards of a closed stage (Won, Lost): a phone's stage switcher asked for it. */
  showClosed?: boolean;
};

const isOpen = (column: Column) => column.stage.status === 'New' || column.stage.status === 'Contacted';

/** The column's header: its name, count and fees. */
function ColumnHeader({ column, headingId }: { column: Column; headingId: string }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-2 px-1">
      <h2 id={headingId} className="font-semibold text-slate-900">
        {column.stage.name}
      </h2>
      <p className="text-xs text-slate-600" data-testid="column-totals">
        {column.count === 1 ? '1 deal' : `${column.count.toLocaleString('en-US')} deals`} · {formatCents(column.fees_cents)}
      </p>
    </div>
  );
}

/**
 * One stage on the board, a drop target. An open stage lists its cards, 25 at a time
 * (**Show more** asks for the next); Won and Lost are collapsed to their count and fees.
 */
export function BoardColumn({ column, filters, stages, draggable, onMove, showClosed = false }: Props) {
  const { setNodeRef, isOver } = useDroppable({ id: column.stage.id, disabled: !draggable });
  const headingId = `stage-${column.stage.id}`;
  const listed = isOpen(column) || showClosed;
  // Pages after the first: asked by Show more (a closed stage's first page too, when shown).
  const from = isOpen(column) ? (column.next_cursor ?? '') : '';
  const [wanted, setWanted] = useState(listed && !isOpen(column) ? 1 : 0);
  const more = useColumnPages(filters, column.stage.id, from, wanted > 0 && (from !== '' || !isOpen(column)));
  const loaded = more.data?.pages.length ?? 0;
  useEffect(() => {
    if (wanted > loaded && more.hasNextPage && !more.isFetching) void more.fetchNextPage();
  }, [wanted, loaded, more]);
  const seen = new Set(column.cards.map((c) => c.id));
  const extra = (more.data?.pages ?? []).flatMap((p) => p.columns[0]?.cards ?? []).filter((c) => !seen.has(c.id) && seen.add(c.id));
  const cards = [...column.cards, ...extra];
  const hasMore = isOpen(column) ? (loaded === 0 ? column.next_cursor !== null : more.hasNextPage) : more.hasNextPage;

  return (
    <section
      ref={setNodeRef}
      aria-labelledby={headingId}
      data-testid="board-column"
      className={`flex min-w-0 flex-col gap-2 rounded-lg border p-2 ${isOver ? 'border-blue-500 bg-blue-50' : 'border-slate-200 bg-slate-100'} ${
        listed ? '' : 'justify-center'
      }`}
    >
      <ColumnHeader column={column} headingId={headingId} />
      {listed ? (
        cards.length === 0 && !more.isFetching ? (
          <p className="px-1 py-4 text-center text-sm text-slate-600">No deals in this stage.</p>
        ) : (
          <ul className="space-y-2" aria-labelledby={headingId}>
            {cards.map((card) => (
              <BoardCard
                key={card.id}
                card={card}
                stageId={column.stage.id}
                stages={stages}
                draggable={draggable}
                onMove={(to) => onMove(card, column.stage.id, to)}
              />
            ))}
          </ul>
        )
      ) : (
        <p className="px-1 text-xs text-slate-600">Drop a deal here to mark it {column.stage.status === 'Dropped' ? 'lost' : 'won'}.</p>
      )}
      {listed && hasMore ? (
        <Button variant="secondary" size="sm" disabled={more.isFetching} onClick={() => setWanted(Math.max(wanted, loaded) + 1)}>
          {more.isFetching ? 'Loading...' : 'Show more'}
        </Button>
      ) : null}
    </section>
  );
}
