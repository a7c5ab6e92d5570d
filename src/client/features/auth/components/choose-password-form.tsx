import { useRef, useState, type FormEvent } from 'react';
import { checkText } from '#shared/rules/text';
import { LOGIN_RULES } from '#shared/rules/login';
import { checkNewPassword } from '#shared/rules/new-password';
import { PROFILE_RULES } from '#shared/rules/profile';
import { ApiError } from '#client/lib/api-client.ts';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';

export type ChosenCredentials = { display_name: string; email: string; password: string; confirm: string };
type Field = keyof ChosenCredentials;
type Errors = Partial<Record<Field, string>>;

type Props = {
  /** The email typed here (first run), or fixed and only shown (an invitation). */
  email: { editable: true } | { editable: false; value: string };
  /** Ask for the person's name too (a new account: first run, an invitation). */
  askName?: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (values: ChosenCredentials) => Promise<void>;
};

function check(values: ChosenCredentials, emailEditable: boolean, askName: boolean): Errors {
  const errors: Errors = {};
  if (askName) {
    const name = checkText(values.display_name, PROFILE_RULES.display_name);
    if (!name.ok) errors.display_name = name.error;
  }
  if (emailEditable) {
    const email = checkText(values.email, LOGIN_RULES.email);
    if (!email.ok) errors.email = email.error;
  }
  const password = checkNewPassword(values);
  if (!password.ok) Object.assign(errors, password.errors);
  return errors;
}

/**
 * The person's name (a new account), email (typed or given), a new password and the same
 * again, checked with the rules the server applies: messages show on submit, then follow the
 * input; the first invalid field gets focus; the server's field messages land on their fields.
 */
export function ChoosePasswordForm({ email, askName = false, submitLabel, busyLabel, onSubmit }: Props) {
  const [values, setValues] = useState<ChosenCredentials>({ display_name: '', email: email.editable ? '' : email.value, password: '', confirm: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const attempted = useRef(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);

  const change = (name: Field, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    if (attempted.current) setErrors(check(next, email.editable, askName));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    attempted.current = true;
    const found = check(values, email.editable, askName);
    setErrors(found);
    const first = found.display_name ? nameRef : found.email ? emailRef : found.password ? passwordRef : found.confirm ? confirmRef : undefined;
    if (first) {
      first.current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await onSubmit({ ...values, display_name: values.display_name.trim(), email: values.email.trim().toLowerCase() });
    } catch (err) {
      if (err instanceof ApiError && err.fields && Object.keys(err.fields).length > 0) setErrors(err.fields as Errors);
      else if (err instanceof ApiError) toast.error(err.message);
      else {
        console.error('Could not save the password', err);
        toast.error('An unexpected error occurred');
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form className="mt-8 space-y-5" onSubmit={(event) => void submit(event)} noValidate>
      {askName ? (
        <TextField
          ref={nameRef}
          label="Your name"
          name="name"
          autoComplete="name"
          error={errors.display_name}
          value={values.display_name}
          onChange={(e) => change('display_name', e.currentTarget.value)}
        />
      ) : null}
      {email.editable ? (
        <TextField
          ref={emailRef}
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          error={errors.email}
          value={values.email}
          onChange={(e) => change('email', e.currentTarget.value)}
        />
      ) : (
        // The account's email, for the password manager to file the new password under.
        <TextField label="Email" name="email" type="email" autoComplete="username" value={values.email} readOnly />
      )}
      <TextField
        ref={passwordRef}
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        error={errors.password}
        value={values.password}
        onChange={(e) => change('password', e.currentTarget.value)}
      />
      <TextField
        ref={confirmRef}
        label="Confirm password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        error={errors.confirm}
        value={values.confirm}
        onChange={(e) => change('confirm', e.currentTarget.value)}
      />
      <button
        type="submit"
        disabled={submitting}
        className="w-full rounded-md bg-blue-700 px-4 py-2.5 font-semibold text-white hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {submitting ? busyLabel : submitLabel}
      </button>
    </form>
  );
}
