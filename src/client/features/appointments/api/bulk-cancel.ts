import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BulkCancelRequest, BulkCancelResponse, WebsiteNetworksResponse } from '#shared/schemas/appointment';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Which website bookings: a network and/or a window of when they were booked. */
export type BookingCriteria = Omit<BulkCancelRequest, 'notify' | 'dry_run'>;

export const bulkCancel = (body: BulkCancelRequest) => apiRequest<BulkCancelResponse>('POST', '/api/appointments/bulk-cancel', body);

export const getWebsiteNetworks = () => apiRequest<WebsiteNetworksResponse>('GET', '/api/appointments/website-networks');

export const useWebsiteNetworks = () => useQuery({ queryKey: queryKeys.appointments.websiteNetworks, queryFn: getWebsiteNetworks });

/** How many calls the criteria would cancel now (a dry run); off while they are incomplete. */
export const useBulkCancelPreview = (criteria: BookingCriteria | undefined) =>
  useQuery({
    queryKey: queryKeys.appointments.bulkCancelPreview(criteria),
    queryFn: () => bulkCancel({ ...criteria, notify: false, dry_run: true }),
    enabled: criteria !== undefined,
    placeholderData: keepPreviousData,
    retry: false,
  });

export function useBulkCancel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkCancelRequest) => bulkCancel({ ...body, dry_run: false }),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.appointments.all }),
        client.invalidateQueries({ queryKey: queryKeys.leads.all }),
        client.invalidateQueries({ queryKey: queryKeys.overview }),
      ]);
    },
  });
}
