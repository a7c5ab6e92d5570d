import { useQuery } from '@tanstack/react-query';
import type { OutsideBlock, OutsideBusy } from '#shared/schemas/calendars';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** One day's grey blocks: a person's busy times from their own calendars (no details). */
export type OutsideBlocks = ReadonlyMap<string, readonly OutsideBlock[]>;

/**
 * `person`'s outside busy times over business dates `from` to `to`, by date; nothing while no
 * single person is chosen (Everyone shows no grey blocks: whose would they be?).
 */
export function useOutsideBusy(person: string, from: string, to: string) {
  return useQuery({
    queryKey: queryKeys.appointments.outsideBusy(person, from, to),
    queryFn: () => apiRequest<OutsideBusy>('GET', `/api/calendar/busy?${new URLSearchParams({ person, from, to }).toString()}`),
    enabled: person !== '',
    select: (data): OutsideBlocks => {
      const byDay = new Map<string, OutsideBlock[]>();
      for (const block of data.busy) byDay.set(block.date, [...(byDay.get(block.date) ?? []), block]);
      return byDay;
    },
  });
}
