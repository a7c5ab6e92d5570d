import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { loginRequestSchema, type LoginRequest } from '#shared/schemas/auth';
import { ApiError } from '#client/lib/api-client.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';

/** Where to go after sign-in: the dashboard page first asked for, or the dashboard. */
function destination(state: unknown): string {
  const from = (state as { from?: string } | null)?.from;
  return typeof from === 'string' && from.startsWith('/dashboard') ? from : '/dashboard';
}

export function LoginPage() {
  const { user, loading, signIn } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginRequest>({ resolver: zodResolver(loginRequestSchema), defaultValues: { email: '', password: '' } });

  if (loading) return <Spinner className="min-h-screen" label="Checking your session..." />;
  if (user) return <Navigate to={destination(location.state)} replace />;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signIn(values);
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
        <form className="mt-8 space-y-5" onSubmit={onSubmit} noValidate>
          <TextField label="Email" type="email" autoComplete="username" error={errors.email?.message} {...register('email')} />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <button
            type="submit"
            disabled={isSubmitting}
            className="w-full rounded-md bg-blue-700 px-4 py-2.5 font-semibold text-white hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-60"
          >
            {isSubmitting ? 'Signing in...' : 'Sign in'}
          </button>
        </form>
        <p className="mt-6 text-center text-sm">
          <Link to="/" reloadDocument className="text-blue-700 underline-offset-2 hover:underline">
            Return to homepage
          </Link>
        </p>
      </div>
    </main>
  );
}
