import { useState } from 'react';
import type { Task } from '#shared/schemas/lead-tasks';
import { toast } from '#client/components/ui/toast-store.ts';
import { taskLabel } from '#client/lib/task-format.ts';
import type { useRefocusWhenGone } from '#client/lib/use-refocus-when-gone.ts';

type Props = {
  task: Task;
  refocus: ReturnType<typeof useRefocusWhenGone>;
  /** Marks the task done or open again (the tasks feature's useUpdateTask). */
  setDone: (done: boolean) => Promise<unknown>;
};

/**
 * A task's tick: marks it done (or reopens it), shows the new state at once, toasts the result,
 * and lets the list move the focus on when the task's row leaves it (the lead page's Tasks card
 * and My tasks).
 */
export function TaskDoneCheckbox({ task, refocus, setDone }: Props) {
  const isDone = task.done_at !== null;
  const label = taskLabel(task);
  // Through the returned promise, not mutate's callbacks: once done (or reopened) the task moves
  // to another list, its row unmounts, and mutate's callbacks would never run (no toast).
  // The tick shows where it is going from the click itself: React puts a controlled checkbox back
  // to its `checked` at the end of the click, and the mutation's own pending state arrives later.
  const [going, setGoing] = useState<boolean | null>(null);
  const toggle = () => {
    const done = !isDone;
    setGoing(done);
    refocus.expect();
    void setDone(done)
      .then(
        () => toast.success(isDone ? 'Task reopened.' : 'Task done.'),
        (error: unknown) => {
          refocus.cancel();
          console.error('Changing the task failed', error);
          toast.error('Failed to change the task');
        },
      )
      .finally(() => setGoing(null));
  };
  return (
    <input
      type="checkbox"
      className="mt-1 size-4 shrink-0 rounded border-slate-300"
      checked={going ?? isDone}
      disabled={going !== null}
      onChange={toggle}
      aria-label={isDone ? `Reopen ${label}` : `Mark ${label} done`}
    />
  );
}
