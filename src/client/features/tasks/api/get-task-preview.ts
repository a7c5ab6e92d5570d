import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TaskList } from '#shared/schemas/lead-tasks';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export type TaskPreviewBucket = 'overdue' | 'today';

export const getTaskPreview = (bucket: TaskPreviewBucket, limit: number) =>
  apiRequest<TaskList>('GET', `/api/tasks?bucket=${bucket}&limit=${limit}`);

export const taskPreviewQueryOptions = (bucket: TaskPreviewBucket, limit: number) =>
  queryOptions({ queryKey: queryKeys.leads.myTasks({ bucket, assignee: 'me', limit }), queryFn: () => getTaskPreview(bucket, limit) });

/** The first few of my tasks of one list, with the counts (the Overview's My tasks). */
export const useTaskPreview = (bucket: TaskPreviewBucket, limit = 5) => useQuery(taskPreviewQueryOptions(bucket, limit));
