import { format, isSameDay, isSameYear } from 'date-fns';
import { TASK_TYPE_LABELS } from '#shared/constants';
import type { Task } from '#shared/schemas/lead-tasks';

/** When a task is due, in this computer's time: "Today, 9:00 AM", "Nov 28, 2:30 PM", "Jan 5, 2027, 9:00 AM". */
export function taskDueText(dueAt: string, now: Date = new Date()): string {
  const due = new Date(dueAt);
  if (isSameDay(due, now)) return `Today, ${format(due, 'h:mm a')}`;
  return format(due, isSameYear(due, now) ? 'MMM d, h:mm a' : 'MMM d, yyyy, h:mm a');
}

/** An open task whose time has passed. */
export const isTaskOverdue = (task: Pick<Task, 'due_at' | 'done_at'>, now: Date = new Date()) =>
  task.done_at === null && new Date(task.due_at).getTime() < now.getTime();

/** "Call: Send the zoning report", or the kind alone for a next step set without text. */
export const taskLabel = (task: Pick<Task, 'type' | 'title'>) =>
  task.title ? `${TASK_TYPE_LABELS[task.type]}: ${task.title}` : TASK_TYPE_LABELS[task.type];
