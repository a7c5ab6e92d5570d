import { useEffect, useId, useState } from 'react';
import type { BoardCard, BoardColumn as Column } from '#shared/schemas/pipeline-board';
import { LoseDealDialog } from '#client/components/lose-deal-dialog.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { formatCents } from '#client/lib/money.ts';
import { usePipeline } from './api/get-pipeline.ts';
import { useMediaQuery } from '#client/lib/use-media-query.ts';
import { useBoard } from './api/get-board.ts';
import { useMoveLead } from './api/move-lead.ts';
import { BoardColumn } from './components/board-column.tsx';
import { BoardDnd } from './components/board-dnd.tsx';
import { BoardFilters } from './components/board-filters.tsx';
import { useBoardView } from './use-board-view.ts';

const isOpen = (c: Column) => c.stage.status === 'New' || c.stage.status === 'Contacted';

/**
 * /dashboard/pipeline: every open deal in its stage (Won and Lost collapsed as drop targets), the
 * forecast, the leads list's filters in the URL. Moves (drag and drop, or **Move to**) show at
 * once and are put back with a toast if refused; a move to Lost first asks why
 * (docs/product-rules.md, "The board"). From 640 px the stages are side by side; on a phone
 * one stage shows at a time, chosen in **Stage**.
 */
export function PipelineBoardPage() {
  const view = useBoardView();
  const board = useBoard(view.filters);
  const pipeline = usePipeline();
  const move = useMoveLead();
  const wide = useMediaQuery('(min-width: 640px)');
  const switcherId = useId();
  const [losing, setLosing] = useState<{ card: BoardCard; stageId: string }>();
  // What a Move to did, said to screen readers (a drag is told by the drag and drop's own announcements).
  const [said, setSaid] = useState('');

  useEffect(() => {
    if (board.isError) console.error('Loading the pipeline failed', board.error);
  }, [board.isError, board.error]);

  const columns = board.data?.columns ?? [];
  const stageName = (id: string) => columns.find((c) => c.stage.id === id)?.stage.name ?? '';
  const send = (card: BoardCard, stageId: string, lostReason?: string) =>
    move.mutate(
      { leadId: card.id, stageId, ...(lostReason !== undefined && { lostReason }) },
      {
        onSuccess: () => {
          if (lostReason !== undefined) toast.success(`Moved to ${stageName(stageId)}: ${lostReason}.`);
        },
        onError: (e) => {
          console.error('Moving the deal failed', e);
          toast.error(e instanceof ApiError && e.status < 500 ? e.message : 'Failed to update lead');
        },
      },
    );
  const requestMove = (card: BoardCard, from: string, to: string, announce = false) => {
    if (from === to) return;
    const target = columns.find((c) => c.stage.id === to);
    if (!target) return;
    if (target.stage.status === 'Dropped') return setLosing({ card, stageId: to });
    if (announce) setSaid(`${card.full_name} moved to ${target.stage.name}.`);
    send(card, to);
  };
  const menuStages = columns.map((c) => ({ id: c.stage.id, name: c.stage.name }));
  const shown = columns.find((c) => c.stage.id === view.stage) ?? columns[0];

  return (
    <section aria-labelledby="pipeline-heading" className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 id="pipeline-heading" className="text-2xl font-bold text-slate-900">
          Pipeline
        </h1>
        {board.data ? (
          <p className="text-lg font-semibold text-slate-900" data-testid="expected-fees">
            {`Expected fees: ${formatCents(board.data.expected_fees_cents)}`}
          </p>
        ) : null}
      </div>
      <BoardFilters
        filters={view.filters}
        onOwner={view.setOwner}
        onSource={view.setSource}
        onCreatedFrom={view.setCreatedFrom}
        onCreatedTo={view.setCreatedTo}
      />
      <p role="status" className="sr-only">
        {said}
      </p>
      {board.isPending ? (
        <Spinner className="py-16" label="Loading pipeline..." />
      ) : board.isError ? (
        <p className="text-slate-700">The pipeline could not be loaded. Please reload the page.</p>
      ) : wide ? (
        <BoardDnd board={board.data} onDrop={(card, from, to) => requestMove(card, from, to)}>
          <div className="flex items-start gap-3 overflow-x-auto pb-2" data-testid="board">
            {columns.filter(isOpen).map((column) => (
              <div key={column.stage.id} className="w-56 shrink-0 lg:w-auto lg:min-w-44 lg:flex-1">
                <BoardColumn
                  column={column}
                  filters={view.filters}
                  stages={menuStages}
                  draggable
                  onMove={(card, from, to) => requestMove(card, from, to, true)}
                />
              </div>
            ))}
            <div className="flex w-36 shrink-0 flex-col gap-3">
              {columns
                .filter((c) => !isOpen(c))
                .map((column) => (
                  <BoardColumn
                    key={column.stage.id}
                    column={column}
                    filters={view.filters}
                    stages={menuStages}
                    draggable
                    onMove={requestMove}
                  />
                ))}
            </div>
          </div>
        </BoardDnd>
      ) : shown ? (
        <div className="space-y-3">
          <div>
            <label htmlFor={switcherId} className="block text-xs font-medium text-slate-600">
              Stage
            </label>
            <select
              id={switcherId}
              value={shown.stage.id}
              onChange={(e) => view.setStage(e.currentTarget.value)}
              className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600"
            >
              {columns.map((c) => (
                <option key={c.stage.id} value={c.stage.id}>
                  {`${c.stage.name} (${c.count.toLocaleString('en-US')})`}
                </option>
              ))}
            </select>
          </div>
          <BoardColumn
            key={shown.stage.id}
            column={shown}
            filters={view.filters}
            stages={menuStages}
            draggable={false}
            showClosed
            onMove={(card, from, to) => requestMove(card, from, to, true)}
          />
        </div>
      ) : null}
      <LoseDealDialog
        leadName={losing?.card.full_name ?? ''}
        stage={losing ? { id: losing.stageId, name: stageName(losing.stageId) } : undefined}
        reasons={pipeline.data?.lost_reasons ?? []}
        busy={false}
        onClose={() => setLosing(undefined)}
        onConfirm={(reason) => {
          if (!losing) return;
          send(losing.card, losing.stageId, reason);
          setLosing(undefined);
        }}
      />
    </section>
  );
}
