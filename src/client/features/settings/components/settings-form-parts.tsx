import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { SettingsNav } from '../settings-nav.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { FieldError } from '#client/components/ui/form-field.tsx';

/**
 * A Settings page that edits one saved thing: the Settings navigation, then a spinner while it
 * loads, a plain message if it cannot, and the form once it has.
 */
export function SettingsFormPage<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <section className="space-y-6">
      <SettingsNav />
      {query.data ? (
        children(query.data)
      ) : query.isError ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">
          The {what} could not be loaded.
        </p>
      ) : (
        <Spinner className="py-16" label={`Loading ${what}...`} />
      )}
    </section>
  );
}

/**
 * After a refused save, focus goes to the form's first field with a message (once the messages
 * are on screen): `formRef` goes on the form, `focusFirstInvalid` is called with the refusal.
 */
export function useFocusFirstInvalid() {
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  return { formRef, focusFirstInvalid: () => setRefusals((n) => n + 1) };
}

/** The form's Save button; "Saving..." and disabled while the save is on its way. */
export function SaveButton({ saving }: { saving: boolean }) {
  return (
    <Button type="submit" disabled={saving}>
      {saving ? 'Saving...' : 'Save'}
    </Button>
  );
}

/**
 * An on/off setting: a checkbox with the switch role, its label, a line of help under it and
 * its error, each tied to the switch for screen readers.
 */
export function SwitchField({
  label,
  checked,
  onChange,
  help,
  error,
  disabled = false,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  help?: ReactNode;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const id = useId();
  const described = [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label className={`flex items-center gap-3 text-sm font-medium ${disabled ? 'text-slate-500' : 'text-slate-800'}`}>
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          disabled={disabled}
          onChange={(e) => onChange(e.currentTarget.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
          className="size-4 rounded border-slate-300"
        />
        {label}
      </label>
      {help ? (
        <p id={`${id}-help`} className="mt-1 ml-7 text-sm break-words text-slate-600">
          {help}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
