import { useId } from 'react';
import { FieldError } from '#client/components/ui/form-field.tsx';
import { WEEKDAYS, type BookingFormErrors, type DayHours } from '../booking-settings-form.ts';

type Props = { hours: DayHours[]; errors: BookingFormErrors; onChange: (day: number, hours: DayHours) => void };

const timeClass = (error: string | undefined) =>
  `w-32 rounded-md border bg-white px-2 py-1.5 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600 disabled:bg-slate-100 disabled:text-slate-500 ${
    error ? 'border-red-500' : 'border-slate-300'
  }`;

/**
 * One row a weekday, Monday first: open or closed, and its opening and closing times. The two
 * times share a cell and wrap under each other on a narrow screen, so the table fits 360 px.
 */
export function WeeklyHours({ hours, errors, onChange }: Props) {
  const id = useId();
  const tableErrorId = `${id}-error`;
  return (
    <div>
      <table
        aria-labelledby={`${id}-caption`}
        aria-describedby={errors.hours ? tableErrorId : undefined}
        className="w-full text-left text-sm"
      >
        <caption id={`${id}-caption`} className="mb-2 text-left text-base font-semibold text-slate-900">
          Opening hours
        </caption>
        <thead className="border-b border-slate-200 text-xs font-medium tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-3">
              Day
            </th>
            <th scope="col" className="py-2 pr-3">
              Open
            </th>
            <th scope="col" className="py-2">
              Hours
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {WEEKDAYS.map((weekday, i) => {
            const day = hours[i]!;
            const startError = errors[`hours.${i}.start`];
            const endError = errors[`hours.${i}.end`];
            const errorId = `${id}-${i}-error`;
            const aria = (error: string | undefined) => ({
              'aria-invalid': error ? true : undefined,
              'aria-describedby': error ? errorId : undefined,
            });
            return (
              <tr key={weekday} className="align-top">
                <th scope="row" className="py-3 pr-3 font-medium text-slate-900">
                  {weekday}
                </th>
                <td className="py-3 pr-3">
                  <input
                    type="checkbox"
                    aria-label={`Open on ${weekday}`}
                    checked={day.open}
                    onChange={(e) => onChange(i, { ...day, open: e.currentTarget.checked })}
                    className="mt-1.5 size-4 rounded border-slate-300"
                  />
                </td>
                <td className="py-2">
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <input
                      type="time"
                      aria-label={`${weekday} opening time`}
                      value={day.start}
                      disabled={!day.open}
                      onChange={(e) => onChange(i, { ...day, start: e.currentTarget.value })}
                      {...aria(startError)}
                      className={timeClass(startError)}
                    />
                    <span aria-hidden="true" className="text-slate-500">
                      to
                    </span>
                    <input
                      type="time"
                      aria-label={`${weekday} closing time`}
                      value={day.end}
                      disabled={!day.open}
                      onChange={(e) => onChange(i, { ...day, end: e.currentTarget.value })}
                      {...aria(endError)}
                      className={timeClass(endError)}
                    />
                  </div>
                  <FieldError id={errorId} error={day.open ? (startError ?? endError) : undefined} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <FieldError id={tableErrorId} error={errors.hours} />
    </div>
  );
}
