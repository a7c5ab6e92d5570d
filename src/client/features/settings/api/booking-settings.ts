import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BookingSettings } from '#shared/schemas/booking';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/**
 * What GET and PUT /api/booking-settings answer: the settings, the business time zone they are
 * in, and whether email is on (without it, bookings cannot be confirmed by email).
 */
export type BookingSettingsResponse = BookingSettings & { time_zone: string; email_on: boolean };

export const getBookingSettings = () => apiRequest<BookingSettingsResponse>('GET', '/api/booking-settings');

export const bookingSettingsQueryOptions = () => queryOptions({ queryKey: queryKeys.settings.booking, queryFn: getBookingSettings });

export const useBookingSettings = () => useQuery(bookingSettingsQueryOptions());

/** Saves all the settings at once; the saved answer replaces the cached one. */
export function useSaveBookingSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: BookingSettings) => apiRequest<BookingSettingsResponse>('PUT', '/api/booking-settings', settings),
    onSuccess: (saved) => client.setQueryData(queryKeys.settings.booking, saved),
  });
}
