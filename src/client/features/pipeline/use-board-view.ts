import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { LEAD_ORIGINS, ORIGIN_VALUE_MAX } from '#shared/constants';
import type { BoardFilters } from './api/get-board.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const day = (value: string | null) => (value !== null && DAY.test(value) ? value : '');

/** The filters from the URL; unknown values count as no filter rather than failing the board. */
function readFilters(params: URLSearchParams): BoardFilters {
  const owner = params.get('owner') ?? '';
  const origin = params.get('origin') ?? '';
  return {
    owner: owner === 'me' || owner === 'none' || UUID.test(owner) ? owner : '',
    origin: (LEAD_ORIGINS as readonly string[]).includes(origin) ? origin : '',
    origin_value: (params.get('origin_value') ?? '').slice(0, ORIGIN_VALUE_MAX),
    created_from: day(params.get('created_from')),
    created_to: day(params.get('created_to')),
  };
}

/**
 * The board's filters live in the URL, as the leads list's do, so a view can be shared and
 * survives a reload and the back button; so does the stage a phone shows (`stage`).
 */
export function useBoardView() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const stage = params.get('stage') ?? '';
  const update = useCallback(
    (changes: Partial<Record<keyof BoardFilters | 'stage', string>>, replace = false) =>
      void setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          return next;
        },
        { replace },
      ),
    [setParams],
  );
  return {
    filters,
    stage,
    setOwner: (owner: string) => update({ owner }),
    /** A source: '' (any), or an origin with its value. */
    setSource: (origin: string, origin_value = '') => update({ origin, origin_value }),
    setCreatedFrom: (created_from: string) => update({ created_from }),
    setCreatedTo: (created_to: string) => update({ created_to }),
    setStage: (id: string) => update({ stage: id }, true),
  };
}
