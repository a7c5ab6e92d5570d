import { useRef, useState } from 'react';
import type { LeadDetail } from '#shared/schemas/lead';
import type { Task } from '#shared/schemas/lead-tasks';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { isTaskOverdue, taskDueText, taskLabel } from '#client/lib/task-format.ts';
import { useDeleteTask } from '#client/features/tasks/api/delete-task.ts';
import { useLeadTasks } from '#client/features/tasks/api/get-lead-tasks.ts';
import { useUpdateTask } from '#client/features/tasks/api/update-task.ts';
import { TaskDoneCheckbox } from '#client/components/task-done-checkbox.tsx';
import { useRefocusWhenGone } from '#client/lib/use-refocus-when-gone.ts';
import { TaskDialog } from './task-dialog.tsx';

const button =
  'rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-60';
const linkButton = 'rounded text-sm font-medium text-blue-700 underline-offset-2 hover:underline';

/**
 * The lead's tasks: open ones soonest first (the first is the next step), each with its due time
 * and whom it is for; a tick marks one done. Done ones are one click away.
 */
export function TasksCard({ lead }: { lead: LeadDetail }) {
  const tasks = useLeadTasks(lead.id);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const refocus = useRefocusWhenGone(headingRef, tasks.data);
  const [editing, setEditing] = useState<Task | 'new' | null>(null);
  const [removing, setRemoving] = useState<Task | null>(null);
  const [showDone, setShowDone] = useState(false);
  const addRef = useRef<HTMLButtonElement>(null);
  const remove = useDeleteTask();
  const all = tasks.data?.tasks ?? [];
  const open = all.filter((task) => task.done_at === null);
  const done = all.filter((task) => task.done_at !== null);

  return (
    <section aria-labelledby="tasks-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 ref={headingRef} id="tasks-heading" tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
          Tasks
        </h2>
        <button ref={addRef} type="button" className={button} onClick={() => setEditing('new')}>
          Add task
        </button>
      </div>
      {tasks.isPending ? (
        <p className="mt-2 text-sm text-slate-500">Loading tasks...</p>
      ) : tasks.isError ? (
        <p className="mt-2 text-sm text-red-700">Failed to load tasks.</p>
      ) : (
        <>
          {open.length === 0 ? <p className="mt-2 text-sm text-slate-500">No open tasks.</p> : null}
          <ul className="mt-2 divide-y divide-slate-100">
            {open.map((task) => (
              <TaskRow key={task.id} task={task} refocus={refocus} onEdit={() => setEditing(task)} onRemove={() => setRemoving(task)} />
            ))}
          </ul>
          {done.length > 0 ? (
            <div className="mt-2">
              <button type="button" className={linkButton} aria-expanded={showDone} onClick={() => setShowDone((v) => !v)}>
                {showDone ? 'Hide done tasks' : `Show done tasks (${done.length})`}
              </button>
              {showDone ? (
                <ul className="mt-1 divide-y divide-slate-100">
                  {done.map((task) => (
                    <TaskRow
                      key={task.id}
                      task={task}
                      refocus={refocus}
                      onEdit={() => setEditing(task)}
                      onRemove={() => setRemoving(task)}
                    />
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
        </>
      )}
      <TaskDialog
        leadId={lead.id}
        name={lead.full_name}
        ownerId={lead.owner_id}
        task={editing === 'new' || editing === null ? undefined : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(next) => !next && setRemoving(null)}
        title="Delete this task?"
        description={removing ? `${taskLabel(removing)} will be removed.` : ''}
        confirmLabel="Delete"
        busy={remove.isPending}
        returnFocusRef={addRef}
        onConfirm={() =>
          removing &&
          remove.mutate(
            { leadId: lead.id, taskId: removing.id },
            {
              onSuccess: () => {
                setRemoving(null);
                toast.success('Task deleted.');
              },
              onError: (error) => {
                console.error('Deleting the task failed', error);
                toast.error('Failed to delete the task');
              },
            },
          )
        }
      />
    </section>
  );
}

type Refocus = ReturnType<typeof useRefocusWhenGone>;

function TaskRow({ task, refocus, onEdit, onRemove }: { task: Task; refocus: Refocus; onEdit: () => void; onRemove: () => void }) {
  const update = useUpdateTask();
  const isDone = task.done_at !== null;
  const overdue = isTaskOverdue(task);
  const label = taskLabel(task);
  return (
    <li className="flex items-start gap-3 py-2" data-testid="task">
      <TaskDoneCheckbox
        task={task}
        refocus={refocus}
        setDone={(done) => update.mutateAsync({ leadId: task.lead_id, taskId: task.id, patch: { done } })}
      />
      <div className="min-w-0 flex-1">
        <p className={`text-sm break-words ${isDone ? 'text-slate-500 line-through' : 'font-medium text-slate-900'}`}>{label}</p>
        <p className={`text-xs ${overdue ? 'font-semibold text-red-700' : 'text-slate-500'}`}>
          {overdue ? 'Overdue: ' : ''}
          {taskDueText(task.due_at)} · {task.assignee ? task.assignee.name : 'Nobody'}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <button type="button" className={linkButton} onClick={onEdit} aria-label={`Edit ${label}`}>
          Edit
        </button>
        <button type="button" className={linkButton} onClick={onRemove} aria-label={`Delete ${label}`}>
          Delete
        </button>
      </div>
    </li>
  );
}
