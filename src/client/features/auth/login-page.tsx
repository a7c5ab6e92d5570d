import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { checkLogin, type LoginErrors, type LoginInput } from '#shared/rules/login';
import { ApiError } from '#client/lib/api-client.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { TwoFactorStep } from './components/two-factor-step.tsx';

/** Where to go after sign-in: the dashboard page first asked for, or the dashboard. */
function destination(state: unknown): string {
  const from = (state as { from?: string } | null)?.from;
  return typeof from === 'string' && from.startsWith('/dashboard') ? from : '/dashboard';
}

/**
 * /login. Checked in the browser with the sign-in rules the server applies (rules/login.ts):
 * messages show on submit, then follow the input; the first invalid field gets focus.
 */
export function LoginPage() {
  const { user, loading, signIn, setupNeeded } = useAuth();
  const [twoFactor, setTwoFactor] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const [values, setValues] = useState<Required<LoginInput>>({ email: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const attempted = useRef(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  if (loading) return <Spinner className="min-h-screen" label="Checking your session..." />;
  if (user) return <Navigate to={destination(location.state)} replace />;
  if (twoFactor) return <TwoFactorStep onBack={() => setTwoFactor(false)} onDone={() => void navigate(destination(location.state), { replace: true })} />;

  const change = (name: keyof LoginInput, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    if (attempted.current) {
      const result = checkLogin(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    attempted.current = true;
    const result = checkLogin(values);
    if (!result.ok) {
      setErrors(result.errors);
      (result.errors.email ? emailInput : passwordInput).current?.focus();
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      if ((await signIn(result.value)) === 'two-factor') {
        setTwoFactor(true);
        return;
      }
      void navigate(destination(location.state), { replace: true });
    } catch (err) {
      if (err instanceof ApiError) toast.error(err.message || 'Invalid credentials');
      else {
        console.error('Sign-in failed', err);
        toast.error('An unexpected error occurred');
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4 py-12">
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-lg">
        <h1 className="text-center text-2xl font-bold text-slate-900">Admin Login</h1>
        <p className="mt-2 text-center text-sm text-slate-600">Sign in to access the CRM dashboard</p>
        {setupNeeded ? (
          <p role="status" className="mt-6 rounded-md border border-blue-200 bg-blue-50 p-4 text-sm text-blue-900">
            No admin account exists yet. The first admin is created from the one-time set-up link the server printed in its log when it started
            (see the server&rsquo;s log).
          </p>
        ) : null}
        <form className="mt-8 space-y-5" onSubmit={(event) => void onSubmit(event)} noValidate>
          <TextField
            ref={emailInput}
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            error={errors.email}
            value={values.email}
            onChange={(e) => change('email', e.currentTarget.value)}
          />
          <TextField
            ref={passwordInput}
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            error={errors.password}
            value={values.password}
            onChange={(e) => change('password', e.currentTarget.value)}
          />
          <button
            type="submit"
            disabled={submitting}
            className="w-full rounded-md bg-blue-700 px-4 py-2.5 font-semibold text-white hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-60"
          >
            {submitting ? 'Signing in...' : 'Sign in'}
          </button>
        </form>
        <p className="mt-4 text-center text-sm">
          <Link to="/forgot-password" className="text-blue-700 underline-offset-2 hover:underline">
            Forgot your password?
          </Link>
        </p>
        <p className="mt-4 text-center text-sm">
          <Link to="/" reloadDocument className="text-blue-700 underline-offset-2 hover:underline">
            Return to homepage
          </Link>
        </p>
      </div>
    </main>
  );
}
