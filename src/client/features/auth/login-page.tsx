import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { checkLogin } from '#shared/rules/login';
import { ApiError } from '#client/lib/api-client.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useCheckedForm } from '#client/lib/use-checked-form.ts';
import { Button } from '#client/components/ui/button.tsx';
import { TwoFactorStep } from './components/two-factor-step.tsx';
import { HomeLink } from './components/auth-card.tsx';

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
  const form = useCheckedForm({ email: '', password: '' }, checkLogin);

  if (loading) return <Spinner className="min-h-screen" label="Checking your session..." />;
  if (user) return <Navigate to={destination(location.state)} replace />;
  if (twoFactor)
    return (
      <TwoFactorStep onBack={() => setTwoFactor(false)} onDone={() => void navigate(destination(location.state), { replace: true })} />
    );

  const onSubmit = form.handleSubmit(async (credentials) => {
    try {
      if ((await signIn(credentials)) === 'two-factor') {
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
    }
  });

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4 py-12">
      <div className="w-full max-w-md rounded-xl bg-white p-8 shadow-lg">
        <h1 className="text-center text-2xl font-bold text-slate-900">Admin Login</h1>
        <p className="mt-2 text-center text-sm text-slate-600">Sign in to access the CRM dashboard</p>
        {setupNeeded ? (
          <p role="status" className="mt-6 rounded-md border border-blue-200 bg-blue-50 p-4 text-sm text-blue-900">
            No admin account exists yet. The first admin is created from the one-time set-up link the server printed in its log when it
            started (see the server&rsquo;s log).
          </p>
        ) : null}
        <form className="mt-8 space-y-5" onSubmit={(event) => void onSubmit(event)} noValidate>
          <TextField label="Email" type="email" autoComplete="username" {...form.field('email')} />
          <TextField label="Password" type="password" autoComplete="current-password" {...form.field('password')} />
          <Button type="submit" size="block" disabled={form.submitting}>
            {form.submitting ? 'Signing in...' : 'Sign in'}
          </Button>
        </form>
        <p className="mt-4 text-center text-sm">
          <Link to="/forgot-password" className="text-blue-700 underline-offset-2 hover:underline">
            Forgot your password?
          </Link>
        </p>
        <HomeLink className="mt-4" />
      </div>
    </main>
  );
}
