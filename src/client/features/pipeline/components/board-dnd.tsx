import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { useMemo, useState, type ReactNode } from 'react';
import type { BoardCard as Card, PipelineBoard } from '#shared/schemas/pipeline-board';
import { CardBody } from './board-card.tsx';

const INSTRUCTIONS =
  'To move a deal, press Space or Enter on its drag handle, use the arrow keys to choose a stage, then press Space or Enter to drop it there, or Escape to cancel.';

/**
 * The keyboard moves a picked-up card a whole stage at a time: Right or Down to the next stage
 * in the board's order, Left or Up to the previous one (dnd-kit's default moves 25 px a press).
 */
function stageSteps(order: string[]): KeyboardCoordinateGetter {
  return (event, { active, context, currentCoordinates }) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.code];
    if (step === undefined) return undefined;
    event.preventDefault();
    const here = String(context.over?.id ?? context.active?.data.current?.stageId ?? active);
    const next = order[order.indexOf(here) + step];
    const target = next === undefined ? undefined : context.droppableRects.get(next);
    const moving = context.collisionRect;
    if (!target || !moving) return currentCoordinates;
    return {
      x: target.left + target.width / 2 - moving.width / 2,
      y: target.top + Math.min(target.height / 2, 60) - moving.height / 2,
    };
  };
}

/** The stage under the pointer; for the keyboard (no pointer), the one the card overlaps most. */
const stageUnder: CollisionDetection = (args) => {
  const under = pointerWithin(args);
  return under.length > 0 ? under : rectIntersection(args);
};

/**
 * Drag and drop between stages (mouse, touch, keyboard), told to screen readers in plain words:
 * "Picked up Jane Doe.", "Jane Doe is over Proposal sent.", "Jane Doe moved to Proposal sent."
 */
export function BoardDnd({
  board,
  onDrop,
  children,
}: {
  board: PipelineBoard;
  onDrop: (card: Card, fromStageId: string, toStageId: string) => void;
  children: ReactNode;
}) {
  const order = board.columns.map((c) => c.stage.id);
  const sensors = useSensors(
    // A few pixels before a drag starts, so the name's link and Move to still take clicks and taps.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: stageSteps(order) }),
  );
  const [dragging, setDragging] = useState<Card>();
  const lookup = useMemo(() => {
    const cards = new Map<string, { card: Card; stageId: string }>();
    for (const column of board.columns) for (const card of column.cards) cards.set(card.id, { card, stageId: column.stage.id });
    const stages = new Map(board.columns.map((c) => [c.stage.id, c.stage.name]));
    return { card: (id: UniqueIdentifier) => cards.get(String(id)), stage: (id: UniqueIdentifier | undefined) => stages.get(String(id)) };
  }, [board]);
  const name = (id: UniqueIdentifier) => lookup.card(id)?.card.full_name ?? 'The deal';

  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}.`,
    // Over its own stage (where it is picked up) says nothing, so "Picked up" is heard.
    onDragOver: ({ active, over }) => {
      if (over?.id === lookup.card(active.id)?.stageId) return undefined;
      return over ? `${name(active.id)} is over ${lookup.stage(over.id)}.` : `${name(active.id)} is not over a stage.`;
    },
    onDragEnd: ({ active, over }) => {
      const from = lookup.card(active.id)?.stageId;
      if (!over || over.id === from) return `${name(active.id)} was dropped and stays in ${lookup.stage(from)}.`;
      return `${name(active.id)} moved to ${lookup.stage(over.id)}.`;
    },
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled. It stays in ${lookup.stage(lookup.card(active.id)?.stageId)}.`,
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={stageUnder}
      accessibility={{ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }}
      onDragStart={({ active }) => setDragging(lookup.card(active.id)?.card)}
      onDragCancel={() => setDragging(undefined)}
      onDragEnd={({ active, over }) => {
        setDragging(undefined);
        const found = lookup.card(active.id);
        if (found && over && over.id !== found.stageId) onDrop(found.card, found.stageId, String(over.id));
      }}
    >
      {children}
      <DragOverlay dropAnimation={null}>
        {dragging ? (
          <div className="w-60 space-y-1 rounded-md border border-blue-400 bg-white p-3 shadow-lg">
            <p className="font-medium text-slate-900">{dragging.full_name}</p>
            <CardBody card={dragging} />
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}
