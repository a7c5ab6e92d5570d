import {
  CalendarDays,
  ChartColumn,
  CircleCheck,
  LayoutDashboard,
  LogOut,
  Mail,
  Settings,
  SquareKanban,
  Users,
  X,
} from '#client/components/icons.tsx';
import { useEffect, useRef } from 'react';
import { NavLink } from 'react-router';
import { useAuth } from '#client/lib/auth.tsx';

const LINKS = [
  { to: '/dashboard', label: 'Overview', icon: LayoutDashboard, end: true },
  { to: '/dashboard/leads', label: 'Leads', icon: Users, end: false },
  { to: '/dashboard/pipeline', label: 'Pipeline', icon: SquareKanban, end: false },
  { to: '/dashboard/inbox', label: 'Inbox', icon: Mail, end: false },
  { to: '/dashboard/tasks', label: 'My tasks', icon: CircleCheck, end: false },
  { to: '/dashboard/appointments', label: 'Appointments', icon: CalendarDays, end: false },
  { to: '/dashboard/analytics', label: 'Analytics', icon: ChartColumn, end: false },
  // The team and the settings are the owners'.
  { to: '/dashboard/settings', label: 'Settings', icon: Settings, end: false, ownersOnly: true },
];

type Props = { id: string; open: boolean; desktop: boolean; siteName: string; onClose: () => void; onLogout: () => void };

/** Fixed on wide screens; on small ones it slides in over an overlay. */
export function Sidebar({ id, open, desktop, siteName, onClose, onLogout }: Props) {
  const first = useRef<HTMLAnchorElement>(null);
  const { user } = useAuth();
  const links = LINKS.filter((link) => !('ownersOnly' in link) || user?.role === 'owner');
  // On a phone, opening the menu moves focus into it; closed, it is out of the tab order.
  useEffect(() => {
    if (open && !desktop) first.current?.focus();
  }, [open, desktop]);
  return (
    <>
      {open ? (
        <div aria-hidden="true" onClick={onClose} className="fixed inset-0 z-30 bg-slate-900/50 lg:hidden" data-testid="sidebar-overlay" />
      ) : null}
      <aside
        id={id}
        aria-label="Sidebar"
        inert={!open && !desktop}
        className={`fixed inset-y-0 left-0 z-40 flex w-64 flex-col bg-navy-950 text-slate-200 transition-transform duration-200 lg:translate-x-0 ${
          open ? 'translate-x-0' : '-translate-x-full'
        }`}
      >
        <div className="flex h-16 items-center justify-between px-5">
          <span className="line-clamp-2 min-w-0 font-semibold leading-tight text-white">{siteName}</span>
          <button type="button" onClick={onClose} aria-label="Close menu" className="rounded p-1 hover:bg-white/10 lg:hidden">
            <X aria-hidden="true" className="size-5" />
          </button>
        </div>
        <nav aria-label="Dashboard" className="flex-1 space-y-1 px-3 py-4">
          {links.map(({ to, label, icon: Icon, end }) => (
            <NavLink
              key={to}
              ref={to === '/dashboard' ? first : undefined}
              to={to}
              end={end}
              className={({ isActive }) =>
                `flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-blue-700 text-white' : 'hover:bg-white/10'}`
              }
            >
              <Icon aria-hidden="true" className="size-5" />
              {label}
            </NavLink>
          ))}
        </nav>
        <div className="border-t border-white/10 p-3">
          <button
            type="button"
            onClick={onLogout}
            className="flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium hover:bg-white/10"
          >
            <LogOut aria-hidden="true" className="size-5" />
            Logout
          </button>
        </div>
      </aside>
    </>
  );
}
