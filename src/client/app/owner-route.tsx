import { Link, Outlet } from 'react-router';
import { useAuth } from '#client/lib/auth.tsx';

/** Pages only an owner may open (Settings: the team, the audit log, email, booking): staff are told so. */
export function OwnerRoute() {
  const { user } = useAuth();
  if (user?.role === 'owner') return <Outlet />;
  return (
    <div className="mx-auto max-w-lg space-y-3 rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
      <h1 className="text-xl font-semibold text-slate-900">Only an owner can open this page.</h1>
      <p className="text-sm text-slate-600">Settings, the team and the audit log are managed by the owners of your team.</p>
      <Link to="/dashboard" className="inline-block text-sm font-medium text-blue-700 underline">
        Back to the Overview
      </Link>
    </div>
  );
}
