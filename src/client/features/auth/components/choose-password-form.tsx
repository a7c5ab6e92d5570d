import { checkText } from '#shared/rules/text-checks';
import { LOGIN_RULES } from '#shared/rules/login';
import { checkNewPassword } from '#shared/rules/new-password';
import { PROFILE_RULES } from '#shared/rules/profile';
import { ApiError } from '#client/lib/api-client.ts';
import { useCheckedForm, type FormCheck } from '#client/lib/use-checked-form.ts';
import { Button } from '#client/components/ui/button.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';

export type ChosenCredentials = { display_name: string; email: string; password: string; confirm: string };
type Errors = Partial<Record<keyof ChosenCredentials, string>>;

type Props = {
  /** The email typed here (first run), or fixed and only shown (an invitation). */
  email: { editable: true } | { editable: false; value: string };
  /** Ask for the person's name too (a new account: first run, an invitation). */
  askName?: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (values: ChosenCredentials) => Promise<void>;
};

function check(values: ChosenCredentials, emailEditable: boolean, askName: boolean): FormCheck<ChosenCredentials, ChosenCredentials> {
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
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { ...values, display_name: values.display_name.trim(), email: values.email.trim().toLowerCase() } };
}

/**
 * The person's name (a new account), email (typed or given), a new password and the same
 * again, checked with the rules the server applies: messages show on submit, then follow the
 * input; the first invalid field gets focus; the server's field messages land on their fields.
 */
export function ChoosePasswordForm({ email, askName = false, submitLabel, busyLabel, onSubmit }: Props) {
  const form = useCheckedForm<ChosenCredentials, ChosenCredentials>(
    { display_name: '', email: email.editable ? '' : email.value, password: '', confirm: '' },
    (values) => check(values, email.editable, askName),
  );

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (err) {
      if (err instanceof ApiError && err.fields && Object.keys(err.fields).length > 0) form.setErrors(err.fields as Errors);
      else if (err instanceof ApiError) toast.error(err.message);
      else {
        console.error('Could not save the password', err);
        toast.error('An unexpected error occurred');
      }
    }
  });

  return (
    <form className="mt-8 space-y-5" onSubmit={(event) => void submit(event)} noValidate>
      {askName ? <TextField label="Your name" autoComplete="name" {...form.field('display_name')} name="name" /> : null}
      {email.editable ? (
        <TextField label="Email" type="email" autoComplete="username" {...form.field('email')} />
      ) : (
        // The account's email, for the password manager to file the new password under.
        <TextField label="Email" name="email" type="email" autoComplete="username" value={form.values.email} readOnly />
      )}
      <TextField label="Password" type="password" autoComplete="new-password" {...form.field('password')} />
      <TextField label="Confirm password" type="password" autoComplete="new-password" {...form.field('confirm')} />
      <Button type="submit" size="block" disabled={form.submitting}>
        {form.submitting ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
