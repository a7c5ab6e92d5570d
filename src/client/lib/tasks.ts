import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateTaskRequest, LeadTasksResponse, Task, TaskList, TaskListQuery, UpdateTaskRequest } from '#shared/schemas/lead-tasks';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/**
 * Tasks, shared by the lead page (its Tasks card) and My tasks. A task's change is its lead's
 * (the next step, the timeline, the lists' Next step column): every write refreshes the leads
 * family and the Overview.
 */

export const useLeadTasks = (leadId: string) =>
  useQuery({
    queryKey: queryKeys.leads.tasks(leadId),
    queryFn: () => apiRequest<LeadTasksResponse>('GET', apiPath`/api/leads/${leadId}/tasks`),
  });

export type MyTasksView = Pick<TaskListQuery, 'bucket' | 'assignee'>;

/** One of My tasks' lists, a page at a time ("Show more" asks for the next). */
export const useMyTasks = (view: MyTasksView) =>
  useInfiniteQuery({
    queryKey: queryKeys.leads.myTasks(view),
    initialPageParam: '',
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ bucket: view.bucket, assignee: view.assignee });
      if (pageParam) params.set('cursor', pageParam);
      return apiRequest<TaskList>('GET', `/api/tasks?${params}`);
    },
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });

function useRefreshAfterTask() {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: queryKeys.leads.all }), client.invalidateQueries({ queryKey: queryKeys.overview })]);
}

export function useCreateTask(leadId: string) {
  const refresh = useRefreshAfterTask();
  return useMutation({
    mutationFn: (task: CreateTaskRequest) => apiRequest<Task>('POST', apiPath`/api/leads/${leadId}/tasks`, task),
    onSuccess: refresh,
  });
}

export function useUpdateTask() {
  const refresh = useRefreshAfterTask();
  return useMutation({
    mutationFn: ({ leadId, taskId, patch }: { leadId: string; taskId: string; patch: UpdateTaskRequest }) =>
      apiRequest<Task>('PATCH', apiPath`/api/leads/${leadId}/tasks/${taskId}`, patch),
    onSuccess: refresh,
  });
}

export function useDeleteTask() {
  const refresh = useRefreshAfterTask();
  return useMutation({
    mutationFn: ({ leadId, taskId }: { leadId: string; taskId: string }) =>
      apiRequest<undefined>('DELETE', apiPath`/api/leads/${leadId}/tasks/${taskId}`),
    onSuccess: refresh,
  });
}

/** The first few of my tasks of one list, with the counts (the Overview's My tasks). */
export const useTaskPreview = (bucket: 'overdue' | 'today', limit = 5) =>
  useQuery({
    queryKey: queryKeys.leads.myTasks({ bucket, assignee: 'me', limit }),
    queryFn: () => apiRequest<TaskList>('GET', `/api/tasks?bucket=${bucket}&limit=${limit}`),
  });
