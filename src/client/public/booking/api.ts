import type { Availability, PublicBooking } from '#shared/schemas/booking';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';

/** The visitor's side of booking: open times, and their own booking through its private token. */
export const getAvailability = (from: string, to: string) => apiRequest<Availability>('GET', `/api/public/availability?from=${from}&to=${to}`);

export const bookCall = (token: string, start: string, type: string) => apiRequest<PublicBooking>('POST', '/api/public/bookings', { booking_token: token, start, type });

export const getBooking = (token: string) => apiRequest<PublicBooking>('GET', apiPath`/api/public/bookings/${token}`);

export const moveCall = (token: string, start: string, type: string) => apiRequest<PublicBooking>('PATCH', apiPath`/api/public/bookings/${token}`, { start, type });

export const cancelCall = (token: string) => apiRequest<PublicBooking>('DELETE', apiPath`/api/public/bookings/${token}`);
