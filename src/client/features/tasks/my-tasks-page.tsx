import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { TASK_BUCKETS, type TaskBucket } from '#shared/constants';
import type { TaskListItem } from '#shared/schemas/lead-tasks';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { useAdmins } from '#client/lib/api/admins.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { isTaskOverdue, taskDueText, taskLabel } from '#client/lib/task-format.ts';
import { useMyTasks } from './api/get-my-tasks.ts';
import { useUpdateTask } from './api/update-task.ts';
import { TaskDoneCheckbox } from '#client/components/task-done-checkbox.tsx';
import { useRefocusWhenGone } from '#client/lib/use-refocus-when-gone.ts';

const BUCKET_LABELS: Record<TaskBucket, string> = { overdue: 'Overdue', today: 'Today', upcoming: 'Upcoming', done: 'Done' };
const EMPTY: Record<TaskBucket, string> = {
  overdue: 'Nothing overdue.',
  today: 'No tasks due today.',
  upcoming: 'No upcoming tasks.',
  done: 'No tasks done yet.',
};
const linkButton = 'rounded text-sm font-medium text-blue-700 underline-offset-2 hover:underline';

/** The list and person in the URL (`?bucket=overdue&assignee=anyone`). */
function useTasksView() {
  const [params, setParams] = useSearchParams();
  const bucket = (TASK_BUCKETS as readonly string[]).includes(params.get('bucket') ?? '') ? (params.get('bucket') as TaskBucket) : 'today';
  const assignee = params.get('assignee') ?? 'me';
  const set = (next: { bucket?: TaskBucket; assignee?: string }) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) merged.set(key, value);
    if (merged.get('assignee') === 'me') merged.delete('assignee');
    setParams(merged, { replace: true });
  };
  return { bucket, assignee, set };
}

/**
 * /dashboard/tasks: my tasks, overdue, today's, upcoming and done, each a list of its own with
 * how many it holds; a tick marks one done. Anyone may look at anyone's: staff work every lead,
 * and its tasks with it.
 */
export function MyTasksPage() {
  const { user } = useAuth();
  const { bucket, assignee, set } = useTasksView();
  const tasks = useMyTasks({ bucket, assignee });
  const headingRef = useRef<HTMLHeadingElement>(null);
  const refocus = useRefocusWhenGone(headingRef, tasks.data);
  const admins = useAdmins();
  const pages = tasks.data?.pages ?? [];
  const items = pages.flatMap((page) => page.tasks);
  const counts = pages[0]?.counts;

  useEffect(() => {
    if (tasks.isError) console.error('Loading tasks failed', tasks.error);
  }, [tasks.isError, tasks.error]);

  return (
    <section aria-labelledby="tasks-heading" className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 ref={headingRef} id="tasks-heading" tabIndex={-1} className="text-2xl font-bold text-slate-900 focus:outline-none">
            {assignee === 'me' ? 'My tasks' : 'Tasks'}
          </h1>
          <p className="mt-1 text-slate-600">Calls, emails, meetings and to-dos on your leads.</p>
        </div>
        <SelectField label="Whose tasks" value={assignee} onChange={(e) => set({ assignee: e.target.value })} className="w-full sm:w-64">
          <option value="me">Mine</option>
          <option value="anyone">Anyone’s</option>
          <option value="unassigned">Nobody’s</option>
          {(admins.data?.admins ?? [])
            .filter((person) => person.id !== user?.id)
            .map((person) => (
              <option key={person.id} value={person.id}>
                {person.display_name}
              </option>
            ))}
        </SelectField>
      </div>
      <nav aria-label="Task lists" className="flex flex-wrap gap-2">
        {TASK_BUCKETS.map((b) => (
          <button
            key={b}
            type="button"
            aria-pressed={b === bucket}
            onClick={() => set({ bucket: b })}
            className={`rounded-full border px-3 py-1.5 text-sm font-medium ${
              b === bucket ? 'border-blue-700 bg-blue-700 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'
            } ${b === 'overdue' && (counts?.overdue ?? 0) > 0 && b !== bucket ? 'text-red-700' : ''}`}
          >
            {BUCKET_LABELS[b]}
            {counts ? ` (${counts[b].toLocaleString('en-US')})` : ''}
          </button>
        ))}
      </nav>
      <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
        {tasks.isPending ? (
          <Spinner className="py-12" label="Loading tasks..." />
        ) : tasks.isError ? (
          <p className="p-4 text-sm text-red-700">Failed to load tasks.</p>
        ) : items.length === 0 ? (
          <p className="p-4 text-sm text-slate-500">{EMPTY[bucket]}</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label={`${BUCKET_LABELS[bucket]} tasks`}>
            {items.map((task) => (
              <TaskItem key={task.id} task={task} showAssignee={assignee !== 'me'} refocus={refocus} />
            ))}
          </ul>
        )}
      </div>
      {tasks.hasNextPage ? (
        <button type="button" className={linkButton} disabled={tasks.isFetchingNextPage} onClick={() => void tasks.fetchNextPage()}>
          {tasks.isFetchingNextPage ? 'Loading...' : 'Show more'}
        </button>
      ) : null}
    </section>
  );
}

function TaskItem({
  task,
  showAssignee,
  refocus,
}: {
  task: TaskListItem;
  showAssignee: boolean;
  refocus: ReturnType<typeof useRefocusWhenGone>;
}) {
  const update = useUpdateTask();
  const isDone = task.done_at !== null;
  const label = taskLabel(task);
  const overdue = isTaskOverdue(task);
  return (
    <li className="flex items-start gap-3 p-4" data-testid="task">
      <TaskDoneCheckbox
        task={task}
        refocus={refocus}
        setDone={(done) => update.mutateAsync({ leadId: task.lead_id, taskId: task.id, patch: { done } })}
      />
      <div className="min-w-0 flex-1">
        <p className={`text-sm break-words ${isDone ? 'text-slate-500 line-through' : 'font-medium text-slate-900'}`}>{label}</p>
        <p className="text-sm break-words text-slate-600">
          <Link to={`/dashboard/leads/${encodeURIComponent(task.lead.id)}`} className="font-medium text-blue-700 hover:underline">
            {task.lead.full_name}
          </Link>
          {showAssignee ? ` · ${task.assignee ? task.assignee.name : 'Nobody'}` : ''}
        </p>
      </div>
      <p className={`shrink-0 text-right text-xs ${overdue ? 'font-semibold text-red-700' : 'text-slate-500'}`}>
        {isDone && task.done_at ? `Done ${taskDueText(task.done_at)}` : taskDueText(task.due_at)}
      </p>
    </li>
  );
}
