import { useMutation } from '@tanstack/react-query';
import type { Task, UpdateTaskRequest } from '#shared/schemas/lead-tasks';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { useRefreshAfterTask } from './refresh-after-task.ts';

export type UpdateTaskInput = { leadId: string; taskId: string; patch: UpdateTaskRequest };

export const updateTask = ({ leadId, taskId, patch }: UpdateTaskInput) =>
  apiRequest<Task>('PATCH', apiPath`/api/leads/${leadId}/tasks/${taskId}`, patch);

/** Edits a task, or marks it done or open again (`patch.done`). */
export function useUpdateTask() {
  const refresh = useRefreshAfterTask();
  return useMutation({ mutationFn: updateTask, onSuccess: refresh });
}
