import { useMutation } from '@tanstack/react-query';
import type { CreateTaskRequest, Task } from '#shared/schemas/lead-tasks';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { useRefreshAfterTask } from './refresh-after-task.ts';

export const createTask = (leadId: string, task: CreateTaskRequest) => apiRequest<Task>('POST', apiPath`/api/leads/${leadId}/tasks`, task);

export function useCreateTask(leadId: string) {
  const refresh = useRefreshAfterTask();
  return useMutation({ mutationFn: (task: CreateTaskRequest) => createTask(leadId, task), onSuccess: refresh });
}
