import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { TaskList, TaskListQuery } from '#shared/schemas/lead-tasks';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export type MyTasksView = Pick<TaskListQuery, 'bucket' | 'assignee'>;

export const getMyTasks = (view: MyTasksView, cursor: string) => {
  const params = new URLSearchParams({ bucket: view.bucket, assignee: view.assignee });
  if (cursor) params.set('cursor', cursor);
  return apiRequest<TaskList>('GET', `/api/tasks?${params}`);
};

/** One of My tasks' lists, a page at a time ("Show more" asks for the next). */
export const useMyTasks = (view: MyTasksView) =>
  useInfiniteQuery({
    queryKey: queryKeys.leads.myTasks(view),
    initialPageParam: '',
    queryFn: ({ pageParam }) => getMyTasks(view, pageParam),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });
