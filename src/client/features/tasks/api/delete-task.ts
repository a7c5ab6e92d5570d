import { useMutation } from '@tanstack/react-query';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { useRefreshAfterTask } from './refresh-after-task.ts';

export type DeleteTaskInput = { leadId: string; taskId: string };

export const deleteTask = ({ leadId, taskId }: DeleteTaskInput) =>
  apiRequest<undefined>('DELETE', apiPath`/api/leads/${leadId}/tasks/${taskId}`);

export function useDeleteTask() {
  const refresh = useRefreshAfterTask();
  return useMutation({ mutationFn: deleteTask, onSuccess: refresh });
}
