import { keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { PipelineBoard } from '#shared/schemas/pipeline-board';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/**
 * The board's filters as the URL holds them ('' for none), as the leads list has them: `owner`
 * '' (anyone), 'me', 'none' (unassigned) or an admin's id; `origin`/`origin_value` where leads
 * came from; the days added (YYYY-MM-DD, both included).
 */
export type BoardFilters = { owner: string; origin: string; origin_value: string; created_from: string; created_to: string };

export function boardParams(filters: BoardFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  return params;
}

/** The created-date range is usable: no end before its start. */
export const validRange = (f: Pick<BoardFilters, 'created_from' | 'created_to'>) =>
  !f.created_from || !f.created_to || f.created_from <= f.created_to;

export const getBoard = (filters: BoardFilters) => {
  const query = boardParams(filters).toString();
  return apiRequest<PipelineBoard>('GET', `/api/pipeline${query ? `?${query}` : ''}`);
};

export const boardQueryOptions = (filters: BoardFilters) =>
  queryOptions({
    // Under the leads family: the live stream's lead changes (anyone's move) refetch it.
    queryKey: queryKeys.leads.board(filters),
    queryFn: () => getBoard(filters),
    placeholderData: keepPreviousData,
    enabled: validRange(filters),
  });

export const useBoard = (filters: BoardFilters) => useQuery(boardQueryOptions(filters));

const getColumnPage = (filters: BoardFilters, stageId: string, cursor: string) => {
  const params = boardParams(filters);
  params.set('stage_id', stageId);
  if (cursor) params.set('cursor', cursor);
  return apiRequest<PipelineBoard>('GET', `/api/pipeline?${params.toString()}`);
};

/**
 * One column's cards after `from` (the first page's `next_cursor`, or '' for a closed stage's
 * first page), fetched once `enabled`. Keyed by `from`, so when a move changes the first page
 * the pages after it start again from its new end, never skipping the card pushed off it.
 */
export const useColumnPages = (filters: BoardFilters, stageId: string, from: string, enabled: boolean) =>
  useInfiniteQuery({
    queryKey: queryKeys.leads.boardColumn(filters, stageId, from),
    queryFn: ({ pageParam }) => getColumnPage(filters, stageId, pageParam),
    initialPageParam: from,
    getNextPageParam: (last) => last.columns[0]?.next_cursor ?? undefined,
    enabled,
  });
