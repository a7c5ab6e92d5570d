import { DIRECT_SOURCE, parseUtmValue, type LeadOrigin } from './schemas/analytics-report.ts';

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
