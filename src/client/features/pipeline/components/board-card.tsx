import { useDraggable } from '@dnd-kit/core';
import type { KeyboardEventHandler, PointerEventHandler } from 'react';
import { Link } from 'react-router';
import type { BoardCard as Card } from '#shared/schemas/pipeline-board';
import { GripVertical } from '#client/components/icons.tsx';
import { formatFollowUpDate } from '#client/lib/follow-up.ts';
import { formatCents } from '#client/lib/money.ts';
import { MoveToMenu, type MenuStage } from './move-to-menu.tsx';

const DAY_MS = 86_400_000;

/** "3 days in stage"; under a day, "Less than a day in stage". */
export function ageInStage(enteredAt: string, now = Date.now()): string {
  const days = Math.floor((now - Date.parse(enteredAt)) / DAY_MS);
  if (!(days >= 1)) return 'Less than a day in stage';
  return days === 1 ? '1 day in stage' : `${days.toLocaleString('en-US')} days in stage`;
}

/** What a card shows: the name (a link to the lead), fee, owner, next step and age in stage. */
export function CardBody({ card }: { card: Card }) {
  return (
    <>
      <p className="text-sm text-slate-700">
        {card.estimated_fee_cents === null ? 'No fee yet' : formatCents(card.estimated_fee_cents)}
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, owner: </span>
        {card.owner ? card.owner.name : 'Unassigned'}
      </p>
      <p className="text-xs text-slate-600">
        {card.next_step ? (
          <>
            Next: {formatFollowUpDate(card.next_step.on)}
            {card.next_step.title ? ` — ${card.next_step.title}` : ''}
          </>
        ) : (
          'No next task'
        )}
      </p>
      <p className="text-xs text-slate-500">{ageInStage(card.stage_entered_at)}</p>
    </>
  );
}

/**
 * A deal on the board. A mouse or a finger drags the whole card (past a few pixels, so the
 * name's link and the menu still take clicks); the keyboard picks it up by its handle (Space or
 * Enter). **Move to** does the same from a menu.
 */
export function BoardCard({
  card,
  stageId,
  stages,
  draggable,
  onMove,
}: {
  card: Card;
  stageId: string;
  stages: MenuStage[];
  draggable: boolean;
  onMove: (stageId: string) => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: card.id,
    data: { stageId },
    disabled: !draggable,
  });
  return (
    <li
      ref={setNodeRef}
      onPointerDown={listeners?.onPointerDown as PointerEventHandler | undefined}
      data-testid="board-card"
      className={`space-y-1 rounded-md border border-slate-200 bg-white p-3 shadow-sm ${isDragging ? 'opacity-40' : ''} ${draggable ? 'touch-none' : ''}`}
    >
      <div className="flex items-start gap-1">
        {draggable ? (
          <button
            ref={setActivatorNodeRef}
            type="button"
            {...attributes}
            onKeyDown={listeners?.onKeyDown as KeyboardEventHandler | undefined}
            aria-label={`Drag ${card.full_name}`}
            className="-ml-1 shrink-0 cursor-grab rounded p-0.5 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            <GripVertical aria-hidden="true" className="size-4" />
          </button>
        ) : null}
        <Link
          to={`/dashboard/leads/${card.id}`}
          className="min-w-0 flex-1 font-medium [overflow-wrap:anywhere] text-blue-700 hover:underline"
        >
          {card.full_name}
        </Link>
      </div>
      <CardBody card={card} />
      <div className="flex justify-end">
        <MoveToMenu leadName={card.full_name} stages={stages.filter((s) => s.id !== stageId)} onMove={onMove} />
      </div>
    </li>
  );
}
