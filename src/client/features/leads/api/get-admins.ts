import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminSummary } from '#shared/schemas/lead-workspace';
import { apiRequest } from '#client/lib/api-client.ts';

export const getAdmins = () => apiRequest<{ admins: AdminSummary[] }>('GET', '/api/admins').then((r) => r.admins);

/** The admins a lead can be given to; accounts change rarely, so a few minutes' cache is fine. */
export const adminsQueryOptions = () => queryOptions({ queryKey: ['admins'], queryFn: getAdmins, staleTime: 5 * 60_000 });

export const useAdmins = () => useQuery(adminsQueryOptions());
