import { useId } from 'react';
import type { BookingSettings } from '#shared/schemas/booking';
import { FieldError } from '#client/components/ui/form-field.tsx';
import { useAdmins } from '#client/lib/api/admins.ts';
import { SwitchField } from './settings-form-parts.tsx';

type Value = Pick<BookingSettings, 'website_hosts' | 'website_host_ids' | 'visitors_choose_host'>;

/**
 * Settings → Booking → Who takes website calls: everyone who takes calls (each person's
 * Working hours), or only the people chosen here; and whether visitors may pick the person
 * ("Any available" stays the default on the booking page).
 */
export function WebsiteHosts({
  value,
  error,
  onChange,
}: {
  value: Value;
  error: string | undefined;
  onChange: (patch: Partial<Value>) => void;
}) {
  const id = useId();
  const people = useAdmins();
  const toggle = (personId: string, on: boolean) =>
    onChange({ website_host_ids: on ? [...value.website_host_ids, personId] : value.website_host_ids.filter((p) => p !== personId) });
  return (
    <div className="space-y-4">
      <fieldset>
        <legend className="text-lg font-semibold text-slate-900">Who takes website calls</legend>
        <p className="mt-1 text-sm text-slate-600">
          Each person turns on “Take website calls” and sets their hours on their account page. A time is offered while one of them is free.
        </p>
        <div className="mt-3 space-y-2 text-sm text-slate-800">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`${id}-hosts`}
              checked={value.website_hosts === 'everyone'}
              onChange={() => onChange({ website_hosts: 'everyone' })}
            />
            Everyone who takes calls
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`${id}-hosts`}
              checked={value.website_hosts === 'chosen'}
              onChange={() => onChange({ website_hosts: 'chosen' })}
            />
            Only these people
          </label>
        </div>
      </fieldset>
      {value.website_hosts === 'chosen' ? (
        <fieldset aria-describedby={error ? `${id}-error` : undefined}>
          <legend className="sr-only">People who take website calls</legend>
          {people.data ? (
            <ul className="ml-6 grid gap-2 sm:grid-cols-2">
              {people.data.admins.map((person) => (
                <li key={person.id}>
                  <label className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="checkbox"
                      checked={value.website_host_ids.includes(person.id)}
                      onChange={(e) => toggle(person.id, e.currentTarget.checked)}
                      aria-invalid={error ? true : undefined}
                      className="size-4 rounded border-slate-300"
                    />
                    <span className="[overflow-wrap:anywhere]">{person.display_name}</span>
                  </label>
                </li>
              ))}
            </ul>
          ) : (
            <p className="ml-6 text-sm text-slate-600">{people.isError ? 'The team could not be loaded.' : 'Loading the team...'}</p>
          )}
          <FieldError id={`${id}-error`} error={error} />
        </fieldset>
      ) : null}
      <SwitchField
        label="Visitors may choose who their call is with"
        checked={value.visitors_choose_host}
        onChange={(visitors_choose_host) => onChange({ visitors_choose_host })}
        help="The booking page lists these people by name; “Any available” stays the default."
      />
    </div>
  );
}
