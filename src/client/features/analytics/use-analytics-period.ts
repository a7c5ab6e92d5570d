import { useSearchParams } from 'react-router';
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '#shared/constants';

export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = '7d';

const isPeriod = (value: string | null): value is AnalyticsPeriod => ANALYTICS_PERIODS.some((p) => p === value);

/** The period lives in `?period=` so a reload or a shared link keeps it; anything unknown is 7 days. */
export function useAnalyticsPeriod() {
  const [params, setParams] = useSearchParams();
  const value = params.get('period');
  const period = isPeriod(value) ? value : DEFAULT_ANALYTICS_PERIOD;

  const setPeriod = (next: AnalyticsPeriod) =>
    void setParams((previous) => {
      const updated = new URLSearchParams(previous);
      updated.set('period', next);
      return updated;
    });

  return [period, setPeriod] as const;
}
