import type { Availability, PendingBooking, PublicBooking, PublicHosts } from '#shared/schemas/booking';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';

/** The visitor's side of booking: open times, and their own booking through its private token. */
export const getAvailability = (from: string, to: string, hostId?: string) =>
  apiRequest<Availability>(
    'GET',
    `/api/public/availability?from=${from}&to=${to}${hostId ? `&host_id=${encodeURIComponent(hostId)}` : ''}`,
  );

/** The people a visitor may choose to meet (an empty list unless the firm lets them choose). */
export const getHosts = () => apiRequest<PublicHosts>('GET', '/api/public/hosts');

/** The visitor's own time zone, as the browser names it: the server keeps it, so the mails show their clock. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Booked (201), or held until the visitor confirms it from our email (202, `status: 'pending'`). */
export const bookCall = (token: string, start: string, type: string, hostId?: string) =>
  apiRequest<PublicBooking | PendingBooking>('POST', '/api/public/bookings', {
    booking_token: token,
    start,
    type,
    time_zone: browserTimeZone(),
    ...(hostId && { host_id: hostId }),
  });

/** Confirms a held booking with the code of the emailed link. */
export const confirmCall = (token: string, code: string) =>
  apiRequest<PublicBooking>('POST', apiPath`/api/public/bookings/${token}/confirm`, { code });

export const isPending = (b: PublicBooking | PendingBooking): b is PendingBooking => 'status' in b && b.status === 'pending';

export const getBooking = (token: string) => apiRequest<PublicBooking>('GET', apiPath`/api/public/bookings/${token}`);

export const moveCall = (token: string, start: string, type: string) =>
  apiRequest<PublicBooking>('PATCH', apiPath`/api/public/bookings/${token}`, { start, type, time_zone: browserTimeZone() });

export const cancelCall = (token: string) => apiRequest<PublicBooking>('DELETE', apiPath`/api/public/bookings/${token}`);
