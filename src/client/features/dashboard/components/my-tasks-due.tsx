import { Link } from 'react-router';
import type { TaskListItem } from '#shared/schemas/lead-tasks';
import { taskDueText, taskLabel } from '#client/lib/task-format.ts';
import { useTaskPreview } from '#client/features/tasks/api/get-task-preview.ts';
import { OverviewPanel } from './overview-panel.tsx';

/** My overdue and today's tasks: how many, and the first few of each, each linking to its lead. */
export function MyTasksDue() {
  const overdue = useTaskPreview('overdue');
  const today = useTaskPreview('today');
  const counts = overdue.data?.counts ?? today.data?.counts;
  const items: { task: TaskListItem; overdue: boolean }[] = [
    ...(overdue.data?.tasks ?? []).map((task) => ({ task, overdue: true })),
    ...(today.data?.tasks ?? []).map((task) => ({ task, overdue: false })),
  ];
  const loading = overdue.isPending || today.isPending;
  return (
    <OverviewPanel title="My tasks" link={{ to: '/dashboard/tasks', label: 'View all tasks' }}>
      {counts ? (
        <p className="text-sm text-slate-600" data-testid="my-task-counts">
          <span className={counts.overdue > 0 ? 'font-semibold text-red-700' : ''}>{counts.overdue.toLocaleString('en-US')} overdue</span>
          {' · '}
          {counts.today.toLocaleString('en-US')} due today
        </p>
      ) : null}
      {loading ? (
        <p className="py-6 text-center text-sm text-slate-500">Loading tasks...</p>
      ) : overdue.isError || today.isError ? (
        <p className="py-6 text-center text-sm text-slate-500">Tasks could not be loaded.</p>
      ) : items.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">Nothing due today.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {items.map(({ task, overdue: late }) => (
            <li key={task.id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <Link
                  to={`/dashboard/leads/${encodeURIComponent(task.lead.id)}`}
                  className="block truncate font-medium text-blue-800 hover:underline"
                >
                  {task.lead.full_name}
                </Link>
                <p className="text-sm break-words text-slate-700">{taskLabel(task)}</p>
                <p className="text-xs text-slate-500">{taskDueText(task.due_at)}</p>
              </div>
              <span
                className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ${late ? 'bg-red-100 text-red-800' : 'bg-amber-100 text-amber-900'}`}
              >
                {late ? 'Overdue' : 'Today'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </OverviewPanel>
  );
}
