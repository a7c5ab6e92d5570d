import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminSummary } from '#shared/schemas/lead-workspace';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** The active team members (GET /api/admins): whom a lead can be given to, who can take a call. */
export const getAdmins = () => apiRequest<{ admins: AdminSummary[] }>('GET', '/api/admins');

export const adminsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.admins,
    queryFn: getAdmins,
    staleTime: 5 * 60_000,
    // Without the list, "Assign to me" and "Unassign" still work: no retries, no toast.
    retry: false,
  });

/** Asked only once it is needed (`enabled`): the bulk bar is open. */
export const useAdmins = (enabled = true) => useQuery({ ...adminsQueryOptions(), enabled });
