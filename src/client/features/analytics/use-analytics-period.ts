import { useSearchParams } from 'react-router';
import {
  ANALYTICS_MAX_RANGE_DAYS,
  ANALYTICS_PERIODS,
  ANALYTICS_SOURCE_GROUPS,
  type AnalyticsPeriod,
  type AnalyticsSourceGroup,
} from '#shared/constants';
import { checkDateRange } from '#shared/rules/calendar';
import type { ReportRange } from './api/get-analytics-report.ts';

export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = '7d';
export const CUSTOM_PERIOD = 'custom';

const isPeriod = (value: string | null): value is AnalyticsPeriod => ANALYTICS_PERIODS.some((p) => p === value);

/** What the page shows: a preset period, or a custom range of days when `?period=custom&from=…&to=…` is valid. */
export type AnalyticsView =
  | { kind: 'preset'; period: AnalyticsPeriod; range: ReportRange }
  | { kind: 'custom'; from: string; to: string; range: ReportRange };

function readView(params: URLSearchParams): AnalyticsView {
  const value = params.get('period');
  if (value === CUSTOM_PERIOD) {
    const custom = checkDateRange({ from: params.get('from') ?? undefined, to: params.get('to') ?? undefined }, ANALYTICS_MAX_RANGE_DAYS);
    if (custom.ok) {
      const { from, to } = custom.value;
      return { kind: 'custom', from, to, range: { from, to } };
    }
  }
  const period = isPeriod(value) ? value : DEFAULT_ANALYTICS_PERIOD;
  // The trend, the funnel and the sources count the cards' own period (the server resolves the preset).
  return { kind: 'preset', period, range: { period } };
}

/**
 * The period lives in the URL (`?period=`, and `from`/`to` for a custom range) so a reload or a
 * shared link keeps it; anything unknown or invalid is 7 days. So does the sources table's grouping.
 */
export function useAnalyticsPeriod() {
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  const groupParam = params.get('group');
  const group: AnalyticsSourceGroup = ANALYTICS_SOURCE_GROUPS.find((g) => g === groupParam) ?? 'referrer';

  const write = (changes: Record<string, string | null>) =>
    void setParams((previous) => {
      const updated = new URLSearchParams(previous);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) updated.delete(key);
        else updated.set(key, value);
      }
      return updated;
    });

  return {
    view,
    group,
    setPeriod: (next: AnalyticsPeriod) => write({ period: next, from: null, to: null }),
    setCustom: (from: string, to: string) => write({ period: CUSTOM_PERIOD, from, to }),
    setGroup: (next: AnalyticsSourceGroup) => write({ group: next === 'referrer' ? null : next }),
  };
}
