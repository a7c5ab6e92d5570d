import { useId, useState, type FormEvent } from 'react';
import { BOOKABLE_TYPES, type BookableType } from '#shared/constants';
import { FieldError } from '#client/components/ui/form-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { SaveButton, SwitchField, SettingsFormPage, useFocusFirstInvalid } from './components/settings-form-parts.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useBookingSettings, useSaveBookingSettings, type BookingSettingsResponse } from './api/booking-settings.ts';
import {
  checkBookingForm,
  NUMBER_FIELDS,
  serverFieldErrors,
  toFormValues,
  type BookingFormErrors,
  type BookingFormValues,
} from './booking-settings-form.ts';
import { WebsiteHosts } from './components/website-hosts.tsx';
import { DaysOff } from './components/days-off.tsx';
import { WeeklyHours } from './components/weekly-hours.tsx';

/** /dashboard/settings/booking: when visitors may book a call, and how. */
export function BookingSettingsPage() {
  const settings = useBookingSettings();
  return (
    <SettingsFormPage query={settings} what="booking settings">
      {(data) => <BookingForm settings={data} />}
    </SettingsFormPage>
  );
}

const card = 'rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5';
const checkboxClass = 'size-4 rounded border-slate-300';

/** The form starts from the loaded settings and keeps what was typed (a refetch does not reset it). */
function BookingForm({ settings }: { settings: BookingSettingsResponse }) {
  const id = useId();
  const save = useSaveBookingSettings();
  // With email off the switch is off and cannot be turned on (the server refuses it too).
  const [values, setValues] = useState<BookingFormValues>(() => ({
    ...toFormValues(settings),
    require_email_confirmation: settings.email_on && settings.require_email_confirmation,
  }));
  const [errors, setErrors] = useState<BookingFormErrors>({});
  // After a refused save, focus goes to the first field with a message.
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const refuse = (found: BookingFormErrors) => {
    setErrors(found);
    focusFirstInvalid();
  };

  /** Changes some values and drops the messages of the fields named in `clear` (a key, or a prefix ending in '.'). */
  const change = (patch: Partial<BookingFormValues>, ...clear: string[]) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) =>
      Object.fromEntries(Object.entries(e).filter(([key]) => !clear.some((c) => (c.endsWith('.') ? key.startsWith(c) : key === c)))),
    );
  };
  const toggleType = (type: BookableType, on: boolean) =>
    change({ types: BOOKABLE_TYPES.filter((t) => (t === type ? on : values.types.includes(t))) }, 'types');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkBookingForm(values);
    if (checked.errors) {
      refuse(checked.errors);
      return;
    }
    setErrors({});
    save.mutate(checked.settings, {
      onSuccess: () => toast.success('Booking settings saved'),
      onError: (error) => {
        console.error('Saving the booking settings failed', error);
        refuse(serverFieldErrors(error));
        toast.error('Failed to save booking settings');
      },
    });
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-labelledby={`${id}-heading`} className="space-y-6">
      <div className={`${card} space-y-4`}>
        <div className="space-y-1">
          <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
            Booking
          </h2>
          <p className="text-sm break-words text-slate-600">
            All times are in the business time zone, <strong className="font-medium text-slate-900">{settings.time_zone}</strong>.
          </p>
        </div>
        <SwitchField
          label="Let visitors book a call"
          checked={values.enabled}
          onChange={(enabled) => change({ enabled }, 'enabled')}
          error={errors.enabled}
        />
        <SwitchField
          label="Always require email confirmation"
          checked={values.require_email_confirmation}
          disabled={!settings.email_on}
          onChange={(on) => change({ require_email_confirmation: on }, 'require_email_confirmation')}
          error={errors.require_email_confirmation}
          help={
            settings.email_on
              ? 'Each website booking waits until the visitor clicks the link we email them (within 30 minutes); the time stays open to others until then. Bookings wait like this anyway while they run unusually high.'
              : 'Email is off on this server, so no confirmation link could be sent. Set up email (SMTP_URL) to turn this on.'
          }
        />
      </div>

      <div className={card}>
        <WeeklyHours
          hours={values.hours}
          errors={errors}
          onChange={(day, hours) => change({ hours: values.hours.map((h, i) => (i === day ? hours : h)) }, 'hours', `hours.${day}.`)}
        />
      </div>

      <div className={`${card} space-y-6`}>
        <div className="grid gap-4 sm:grid-cols-2">
          {NUMBER_FIELDS.map(({ key, label, min, max }) => (
            <TextField
              key={key}
              label={label}
              type="number"
              inputMode="numeric"
              min={min}
              max={max}
              step={1}
              value={values[key]}
              onChange={(e) => change({ [key]: e.currentTarget.value }, key)}
              error={errors[key]}
            />
          ))}
        </div>
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-700">Visitors may choose</legend>
          <div className="flex flex-wrap gap-6">
            {BOOKABLE_TYPES.map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  checked={values.types.includes(type)}
                  onChange={(e) => toggleType(type, e.currentTarget.checked)}
                  aria-invalid={errors.types ? true : undefined}
                  aria-describedby={errors.types ? `${id}-types-error` : undefined}
                  className={checkboxClass}
                />
                {type}
              </label>
            ))}
          </div>
          <FieldError id={`${id}-types-error`} error={errors.types} />
        </fieldset>
        <SwitchField
          label="Create a Jitsi Meet link for Zoom calls"
          checked={values.jitsi_links}
          onChange={(jitsi_links) => change({ jitsi_links })}
          help="For a Zoom call whose host has no meeting link of their own (set on their account page), a new Jitsi Meet room (meet.jit.si) becomes the call’s link, in the visitor’s email and calendar file."
        />
      </div>

      <div className={card}>
        <WebsiteHosts
          value={values}
          error={errors.website_host_ids}
          onChange={(patch) => change(patch, 'website_host_ids', 'website_hosts')}
        />
      </div>

      <div className={card}>
        <DaysOff days={values.days_off} error={errors.days_off} onChange={(days_off) => change({ days_off }, 'days_off')} />
      </div>

      <div className="flex justify-end">
        <SaveButton saving={save.isPending} />
      </div>
    </form>
  );
}
