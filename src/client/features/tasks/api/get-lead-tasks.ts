import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LeadTasksResponse } from '#shared/schemas/lead-tasks';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const getLeadTasks = (leadId: string) => apiRequest<LeadTasksResponse>('GET', apiPath`/api/leads/${leadId}/tasks`);

export const leadTasksQueryOptions = (leadId: string) =>
  queryOptions({ queryKey: queryKeys.leads.tasks(leadId), queryFn: () => getLeadTasks(leadId) });

/** A lead's tasks, open and done (the lead page's Tasks card). */
export const useLeadTasks = (leadId: string) => useQuery(leadTasksQueryOptions(leadId));
