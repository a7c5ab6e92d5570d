import { Navigate, Outlet, useLocation } from 'react-router';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useAuth } from '#client/lib/auth.tsx';

/** /dashboard/*: a spinner until the first session check, then the page, /login, or (two-factor required and not set up) the account page. */
export function ProtectedRoute() {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) return <Spinner className="min-h-screen" label="Checking your session..." />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  // The team requires two-factor and this account has none yet: its account page first.
  if (user.must_set_up_two_factor && location.pathname !== '/dashboard/account')
    return <Navigate to="/dashboard/account#two-factor" replace />;
  return <Outlet />;
}
