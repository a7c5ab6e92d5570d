import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { FieldError, fieldAria } from '#client/components/ui/form-field.tsx';
import { formatDate } from '#client/lib/format.ts';
import { checkDayOff } from '../booking-settings-form.ts';
import { Button } from '#client/components/ui/button.tsx';

type Props = { days: string[]; error: string | undefined; onChange: (days: string[]) => void };

/** Dates nobody may book (holidays, time away): added one at a time, listed soonest first. */
export function DaysOff({ days, error, onChange }: Props) {
  const id = useId();
  const [date, setDate] = useState('');
  const [addError, setAddError] = useState<string>();
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // After a removal, focus goes to the Remove button now in its place (or the last one, or
  // the date input), so a keyboard user is not sent back to the top of the page.
  const focusAfterRemove = useRef<number | null>(null);
  useEffect(() => {
    const index = focusAfterRemove.current;
    if (index === null) return;
    focusAfterRemove.current = null;
    const buttons = listRef.current?.querySelectorAll('button') ?? [];
    (buttons[Math.min(index, buttons.length - 1)] ?? inputRef.current)?.focus();
  }, [days]);

  const shownError = addError ?? error;
  const add = () => {
    const message = date === '' ? 'Date is required' : checkDayOff(date, days);
    setAddError(message);
    if (message) {
      inputRef.current?.focus();
      return;
    }
    onChange([...days, date].sort());
    setDate('');
  };
  const remove = (index: number) => {
    focusAfterRemove.current = index;
    setAddError(undefined);
    onChange(days.filter((_, i) => i !== index));
  };
  // Enter in the date field adds the day rather than saving the whole form.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };

  return (
    <fieldset className="space-y-3">
      <legend className="text-base font-semibold text-slate-900">Days off</legend>
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor={`${id}-date`} className="mb-1 block text-sm font-medium text-slate-700">
            Day off
          </label>
          <input
            ref={inputRef}
            id={`${id}-date`}
            type="date"
            value={date}
            onChange={(e) => {
              setDate(e.currentTarget.value);
              setAddError(undefined);
            }}
            onKeyDown={onKeyDown}
            {...fieldAria(shownError, `${id}-error`)}
            className={`rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600 ${shownError ? 'border-red-500' : 'border-slate-300'}`}
          />
        </div>
        <Button onClick={add} variant="secondary">
          Add
        </Button>
      </div>
      <FieldError id={`${id}-error`} error={shownError} />
      {days.length === 0 ? (
        <p className="text-sm text-slate-500">No days off</p>
      ) : (
        <ul ref={listRef} aria-label="Days off" className="divide-y divide-slate-100 rounded-md border border-slate-200">
          {days.map((day, i) => {
            const label = formatDate(day);
            return (
              <li key={day} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <span className="text-slate-900">{label}</span>
                <button
                  type="button"
                  onClick={() => remove(i)}
                  aria-label={`Remove ${label}`}
                  className="rounded-md border border-slate-300 px-2.5 py-1 text-sm text-slate-700 hover:bg-slate-50"
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
