import { useId, useState, type FormEvent } from 'react';
import type { MemberAvailability, MemberAvailabilityResponse } from '#shared/schemas/availability';
import type { OpenHours } from '#shared/schemas/booking';
import { STRETCHES_PER_DAY } from '#shared/constants';
import { Button } from '#client/components/ui/button.tsx';
import { FieldError } from '#client/components/ui/form-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useAvailability, useSaveAvailability } from '../api/working-hours.ts';
import { Card } from './card.tsx';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const LUNCH_AFTER: OpenHours = { start: '13:00', end: '17:00' };

const timeClass =
  'w-28 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600';
const linkButton = 'rounded px-1.5 py-0.5 text-sm font-medium text-blue-700 hover:bg-blue-50 disabled:text-slate-400';

/** "Jan 19": a holiday's date, read as a calendar date (no time zone involved). */
const dayText = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * The account page's Working hours: whether you take website calls, and when — the firm's
 * booking hours or your own (more than one stretch a day, for a lunch break), days off, and
 * US federal holidays off. Visitors are offered a time while anyone who takes calls is free.
 */
export function WorkingHoursSection() {
  const availability = useAvailability();
  return (
    <Card
      title="Working hours"
      description={`When website visitors can book a call with you${availability.data ? `, in ${availability.data.time_zone} time` : ''}. A time is offered while anyone who takes calls is free.`}
    >
      {availability.data ? (
        <WorkingHoursForm key={JSON.stringify(availability.data)} saved={availability.data} />
      ) : availability.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          Your working hours could not be loaded.
        </p>
      ) : (
        <Spinner label="Loading working hours..." />
      )}
    </Card>
  );
}

function WorkingHoursForm({ saved }: { saved: MemberAvailabilityResponse }) {
  const id = useId();
  const save = useSaveAvailability();
  const [bookable, setBookable] = useState(saved.bookable);
  const [own, setOwn] = useState(saved.hours !== null);
  const [week, setWeek] = useState<OpenHours[][]>(saved.hours ?? saved.firm_hours);
  const [daysOff, setDaysOff] = useState(saved.days_off);
  const [newDay, setNewDay] = useState('');
  const [holidaysOff, setHolidaysOff] = useState(saved.holidays_off);
  const [meetingLink, setMeetingLink] = useState(saved.meeting_link ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const setDay = (day: number, stretches: OpenHours[]) => setWeek(week.map((d, i) => (i === day ? stretches : d)));
  const setStretch = (day: number, index: number, change: Partial<OpenHours>) =>
    setDay(
      day,
      week[day]!.map((s, i) => (i === index ? { ...s, ...change } : s)),
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value: MemberAvailability = {
      bookable,
      hours: own ? week : null,
      days_off: daysOff,
      holidays_off: holidaysOff,
      meeting_link: meetingLink.trim() === '' ? null : meetingLink.trim(),
    };
    try {
      await save.mutateAsync(value);
      setErrors({});
      toast.success('Working hours saved');
    } catch (error) {
      console.error('Saving working hours failed', error);
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      toast.error(error instanceof ApiError && error.status === 400 ? error.message : 'Failed to save working hours');
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="mt-4 space-y-5" aria-label="Working hours">
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          checked={bookable}
          onChange={(e) => setBookable(e.currentTarget.checked)}
          className="mt-0.5 size-4 rounded border-slate-300"
        />
        <span>
          <span className="block text-sm font-medium text-slate-900">Take website calls</span>
          <span className="block text-sm text-slate-600">Visitors who book on the website may get a call with you.</span>
        </span>
      </label>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-900">Hours</legend>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="radio" name={`${id}-hours`} checked={!own} onChange={() => setOwn(false)} className="size-4" />
          The firm’s booking hours
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="radio" name={`${id}-hours`} checked={own} onChange={() => setOwn(true)} className="size-4" />
          My own hours
        </label>
      </fieldset>

      <table className="w-full text-left text-sm" aria-describedby={errors.hours ? `${id}-hours-error` : undefined}>
        <caption className="sr-only">Hours by weekday</caption>
        <thead className="border-b border-slate-200 text-xs font-medium tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-3">
              Day
            </th>
            <th scope="col" className="py-2">
              Hours
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {WEEKDAYS.map((weekday, day) => {
            const stretches = (own ? week : saved.firm_hours)[day] ?? [];
            return (
              <tr key={weekday} className="align-top">
                <th scope="row" className="py-2 pr-3 font-medium text-slate-900">
                  {weekday}
                </th>
                <td className="space-y-1 py-2">
                  {stretches.length === 0 ? <p className="py-1 text-slate-500">Not working</p> : null}
                  {stretches.map((s, i) => (
                    <div key={i} className="flex flex-wrap items-center gap-x-2 gap-y-1">
                      <input
                        type="time"
                        aria-label={`${weekday} from`}
                        value={s.start}
                        disabled={!own}
                        onChange={(e) => setStretch(day, i, { start: e.currentTarget.value })}
                        className={timeClass}
                      />
                      <span aria-hidden="true" className="text-slate-500">
                        to
                      </span>
                      <input
                        type="time"
                        aria-label={`${weekday} until`}
                        value={s.end}
                        disabled={!own}
                        onChange={(e) => setStretch(day, i, { end: e.currentTarget.value })}
                        className={timeClass}
                      />
                      {own ? (
                        <button
                          type="button"
                          className={linkButton}
                          aria-label={`Remove ${weekday} ${s.start} to ${s.end}`}
                          onClick={() =>
                            setDay(
                              day,
                              stretches.filter((_, j) => j !== i),
                            )
                          }
                        >
                          Remove
                        </button>
                      ) : null}
                    </div>
                  ))}
                  {own && stretches.length < STRETCHES_PER_DAY ? (
                    <button
                      type="button"
                      className={linkButton}
                      aria-label={`Add hours on ${weekday}`}
                      onClick={() => setDay(day, [...stretches, stretches.length === 0 ? { start: '09:00', end: '17:00' } : LUNCH_AFTER])}
                    >
                      Add hours
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <FieldError id={`${id}-hours-error`} error={errors.hours} />

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-900">Days off</legend>
        <div className="flex flex-wrap items-end gap-2">
          <label className="text-sm text-slate-700">
            <span className="block">Date</span>
            <input type="date" value={newDay} onChange={(e) => setNewDay(e.currentTarget.value)} className={`${timeClass} w-40`} />
          </label>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            disabled={newDay === '' || daysOff.includes(newDay)}
            onClick={() => {
              setDaysOff([...daysOff, newDay].sort());
              setNewDay('');
            }}
          >
            Add day off
          </Button>
        </div>
        {daysOff.length > 0 ? (
          <ul className="flex flex-wrap gap-2" aria-label="Your days off">
            {daysOff.map((d) => (
              <li key={d} className="flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pr-1 pl-3 text-sm text-slate-800">
                {dayText(d)}, {d.slice(0, 4)}
                <button
                  type="button"
                  className={linkButton}
                  aria-label={`Remove day off ${d}`}
                  onClick={() => setDaysOff(daysOff.filter((x) => x !== d))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">No days off.</p>
        )}
        <FieldError id={`${id}-days-error`} error={errors.days_off} />
      </fieldset>

      <div>
        <label className="flex items-center gap-3 text-sm font-medium text-slate-900">
          <input
            type="checkbox"
            checked={holidaysOff}
            onChange={(e) => setHolidaysOff(e.currentTarget.checked)}
            className="size-4 rounded border-slate-300"
          />
          US federal holidays off
        </label>
        {saved.holidays.length > 0 ? (
          <details className="mt-2 text-sm text-slate-700">
            <summary className="cursor-pointer text-blue-700">The next twelve months’ holidays</summary>
            <ul className="mt-2 space-y-0.5">
              {saved.holidays.map((h) => (
                <li key={h.date}>
                  {dayText(h.date)}: {h.name}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>

      <TextField
        label="Meeting link (optional)"
        type="url"
        inputMode="url"
        placeholder="https://zoom.us/j/1234567890"
        value={meetingLink}
        onChange={(e) => setMeetingLink(e.currentTarget.value)}
        error={errors.meeting_link}
      />
      <p className="-mt-3 text-sm text-slate-600">
        Your personal video room: a Zoom call booked with you uses it, in the visitor’s email and calendar file.
      </p>

      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save working hours'}
      </Button>
    </form>
  );
}
