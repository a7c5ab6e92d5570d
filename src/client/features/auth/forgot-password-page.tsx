import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { LOGIN_RULES } from '#shared/rules/login';
import { checkText } from '#shared/rules/text-checks';
import { ApiError } from '#client/lib/api-client.ts';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useRequestPasswordReset } from './api/one-time-links.ts';
import { AuthCard } from './components/auth-card.tsx';
import { Button } from '#client/components/ui/button.tsx';

/** /forgot-password: asks for a reset link by email. The answer never says whether the email has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<string>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const requestReset = useRequestPasswordReset();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const checked = checkText(email, LOGIN_RULES.email);
    if (!checked.ok) {
      setError(checked.error);
      input.current?.focus();
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      // A required rule: an ok check always has the text.
      setSent((await requestReset.mutateAsync(checked.value ?? '')).message);
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : 'An unexpected error occurred');
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Forgot your password?" subtitle="We will email you a link to choose a new one.">
      {sent ? (
        <p role="status" className="mt-6 rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-900">
          {sent}
        </p>
      ) : (
        <form className="mt-8 space-y-5" onSubmit={(event) => void submit(event)} noValidate>
          <TextField
            ref={input}
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            error={error}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <Button type="submit" disabled={busy} size="block">
            {busy ? 'Sending...' : 'Send reset link'}
          </Button>
        </form>
      )}
      <p className="mt-4 text-center text-sm">
        <Link to="/login" className="font-medium text-blue-700 underline-offset-2 hover:underline">
          Back to sign-in
        </Link>
      </p>
    </AuthCard>
  );
}
