import { Navigate, Outlet, useLocation } from 'react-router';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useAuth } from '#client/lib/auth.tsx';

/** /dashboard/*: a spinner until the first session check, then the page or /login. */
export function ProtectedRoute() {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) return <Spinner className="min-h-screen" label="Checking your session..." />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}
