import { useState, type FormEvent } from 'react';
import { ANALYTICS_MAX_RANGE_DAYS, ANALYTICS_PERIOD_LABELS, ANALYTICS_PERIODS, type AnalyticsPeriod } from '#shared/constants';
import { checkDateRange } from '#shared/rules/calendar';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { CUSTOM_PERIOD, type AnalyticsView } from '../use-analytics-period.ts';
import { Button } from '#client/components/ui/button.tsx';

type Errors = { from?: string; to?: string };

/** The messages of the API's own range rules, shown under the field they concern. */
function rangeErrors(from: string, to: string): Errors {
  if (!from || !to) return { ...(!from && { from: 'Date is required' }), ...(!to && { to: 'Date is required' }) };
  const checked = checkDateRange({ from, to }, ANALYTICS_MAX_RANGE_DAYS);
  return checked.ok ? {} : checked.errors;
}

/**
 * The period: a preset, or "Custom range" with a start and an end day (up to 2 years), applied
 * with a button so a half-typed date never loads a report.
 */
export function PeriodPicker({
  view,
  onPeriod,
  onCustom,
}: {
  view: AnalyticsView;
  onPeriod: (p: AnalyticsPeriod) => void;
  onCustom: (from: string, to: string) => void;
}) {
  const [choosing, setChoosing] = useState(false);
  const [from, setFrom] = useState(view.kind === 'custom' ? view.from : '');
  const [to, setTo] = useState(view.kind === 'custom' ? view.to : '');
  const [errors, setErrors] = useState<Errors>({});
  const custom = choosing || view.kind === 'custom';

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const found = rangeErrors(from, to);
    setErrors(found);
    if (found.from || found.to) {
      document.getElementById(found.from ? 'analytics-from' : 'analytics-to')?.focus();
      return;
    }
    setChoosing(false);
    onCustom(from, to);
  };

  return (
    <div className="flex w-full flex-wrap items-end gap-3 sm:w-auto">
      <SelectField
        label="Period"
        value={custom ? CUSTOM_PERIOD : view.kind === 'preset' ? view.period : CUSTOM_PERIOD}
        onChange={(e) => {
          const value = e.target.value;
          if (value === CUSTOM_PERIOD) setChoosing(true);
          else {
            setChoosing(false);
            setErrors({});
            onPeriod(value as AnalyticsPeriod);
          }
        }}
        className="w-full sm:w-48"
      >
        {ANALYTICS_PERIODS.map((p) => (
          <option key={p} value={p}>
            {ANALYTICS_PERIOD_LABELS[p]}
          </option>
        ))}
        <option value={CUSTOM_PERIOD}>Custom range</option>
      </SelectField>
      {custom && (
        <form noValidate onSubmit={apply} aria-label="Custom range" className="grid w-full grid-cols-2 items-start gap-3 sm:flex sm:w-auto">
          <TextField
            id="analytics-from"
            label="From"
            type="date"
            value={from}
            max={to || undefined}
            error={errors.from}
            onChange={(e) => setFrom(e.target.value)}
            className="min-w-0 sm:w-44"
          />
          <TextField
            id="analytics-to"
            label="To"
            type="date"
            value={to}
            min={from || undefined}
            error={errors.to}
            onChange={(e) => setTo(e.target.value)}
            className="min-w-0 sm:w-44"
          />
          <Button type="submit" className="col-span-2 sm:mt-6">
            Apply
          </Button>
        </form>
      )}
    </div>
  );
}
