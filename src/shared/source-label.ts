import type { LeadOrigin } from './constants.ts';

/**
 * The referring-site value of visits without a referrer (typed, bookmarked, or hidden by the
 * browser): what the tracker's ingestion stores for them, and the row that also takes the few
 * visits whose first recorded page had no source at all.
 */
export const DIRECT_SOURCE = 'Direct';

/** A UTM row's value: its source, medium and campaign ('' for none), as one JSON text. */
export const utmValue = (source: string, medium: string, campaign: string) => JSON.stringify([source, medium, campaign]);
export function parseUtmValue(value: string): [string, string, string] | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) && parsed.length === 3 && parsed.every((v) => typeof v === 'string')
      ? (parsed as [string, string, string])
      : undefined;
  } catch {
    return undefined;
  }
}

export const OFFLINE_LABEL = 'Offline / entered by staff';
export const UNRECORDED_LABEL = 'Website, visit not recorded';

/** How a row of the sources table (and the leads list's filter from it) names where visitors came from. */
export function sourceLabel(origin: LeadOrigin | string, value: string): string {
  switch (origin) {
    case 'referrer':
      return value === DIRECT_SOURCE ? 'Direct' : value;
    case 'utm': {
      const parts = (parseUtmValue(value) ?? []).map((part) => part || '–');
      return parts.every((part) => part === '–') ? 'No campaign' : parts.join(' / ');
    }
    case 'offline':
      return OFFLINE_LABEL;
    case 'unrecorded':
      return UNRECORDED_LABEL;
    default:
      return value;
  }
}
