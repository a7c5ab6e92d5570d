import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberAvailability, MemberAvailabilityResponse } from '#shared/schemas/availability';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Your working hours (GET /api/account/availability). */
export const useAvailability = () =>
  useQuery({
    queryKey: queryKeys.account.availability,
    queryFn: () => apiRequest<MemberAvailabilityResponse>('GET', '/api/account/availability'),
  });

/** Saves them; the cache takes what the server saved. */
export function useSaveAvailability() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (value: MemberAvailability) => apiRequest<MemberAvailabilityResponse>('PUT', '/api/account/availability', value),
    onSuccess: (saved) => {
      client.setQueryData(queryKeys.account.availability, saved);
      // Who takes calls decides the website's open times; the calendar shows hosts.
      void client.invalidateQueries({ queryKey: queryKeys.appointments.all });
    },
  });
}
