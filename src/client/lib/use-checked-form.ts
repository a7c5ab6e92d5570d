import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';

/** A form's messages, one per field; a field without one is valid. */
export type FormErrors<V> = Partial<Record<keyof V, string>>;

/** What a form's checker answers: the request to send, or a message per invalid field. */
export type FormCheck<V, R> = { ok: true; value: R } | { ok: false; errors: FormErrors<V> };

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * The admin app's one way to hold a form (docs/conventions.md, "Forms"): the values in React
 * state, checked by the shared rules' checker on submit; after a first submit each change is
 * checked again, so a message goes as soon as the input is right. On submit the first invalid
 * field (in the order of `initial`'s keys) gets focus, and `submitting` is true while the
 * handler runs (a second submit meanwhile is ignored). The server's field messages go in with
 * `setErrors`.
 */
export function useCheckedForm<V extends Record<string, string>, R>(initial: V, check: (values: V) => FormCheck<V, R>) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FormErrors<V>>({});
  const [submitting, setSubmitting] = useState(false);
  const attempted = useRef(false);
  const busy = useRef(false);
  const controls = useRef(new Map<keyof V, HTMLElement | null>());

  const set = <K extends keyof V>(name: K, value: V[K]) => {
    const next = { ...values, [name]: value };
    setValues(next);
    if (attempted.current) {
      const checked = check(next);
      setErrors(checked.ok ? {} : checked.errors);
    }
  };

  /** Spread on a TextField, SelectField or TextareaField: its name, value, error and change. */
  const field = <K extends keyof V & string>(name: K) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<Control>) => set(name, event.currentTarget.value as V[K]),
    ref: (element: HTMLElement | null) => {
      controls.current.set(name, element);
    },
  });

  /** Where a control that is not spread from `field` (a combobox) hands its input, to be focused when invalid. */
  const refOf = (name: keyof V) => (element: HTMLElement | null) => {
    controls.current.set(name, element);
  };

  const focusFirst = (found: FormErrors<V>) => {
    const first = (Object.keys(initial) as (keyof V)[]).find((name) => found[name]);
    if (first !== undefined) controls.current.get(first)?.focus();
  };

  /** The form's onSubmit: checks, then runs `onValid` with the checked request. */
  const handleSubmit = (onValid: (value: R) => Promise<void> | void) => async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy.current) return;
    attempted.current = true;
    const checked = check(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirst(checked.errors);
      return;
    }
    setErrors({});
    busy.current = true;
    setSubmitting(true);
    try {
      await onValid(checked.value);
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  };

  /** Back to these values, with no messages and nothing attempted. */
  const reset = (next: V) => {
    attempted.current = false;
    setValues(next);
    setErrors({});
  };

  return { values, errors, submitting, set, field, refOf, handleSubmit, setErrors, reset };
}
