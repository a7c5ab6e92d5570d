import { NavLink } from 'react-router';

const SECTIONS = [
  { to: '/dashboard/settings/email', label: 'Email' },
  { to: '/dashboard/settings/email-templates', label: 'Email templates' },
  { to: '/dashboard/settings/pipeline', label: 'Pipeline' },
  { to: '/dashboard/settings/booking', label: 'Booking' },
  { to: '/dashboard/settings/website', label: 'Website' },
  { to: '/dashboard/settings/team', label: 'Team' },
  { to: '/dashboard/settings/security', label: 'Security' },
  { to: '/dashboard/settings/integrations', label: 'Integrations' },
  { to: '/dashboard/settings/audit', label: 'Audit log' },
];

/** The Settings heading and its sections. */
export function SettingsNav() {
  return (
    <div className="space-y-3">
      <h1 className="text-2xl font-bold text-slate-900">Settings</h1>
      <nav aria-label="Settings" className="flex gap-2 overflow-x-auto border-b border-slate-200">
        {SECTIONS.map(({ to, label }) => (
          <NavLink
            key={to}
            to={to}
            className={({ isActive }) =>
              `-mb-px shrink-0 border-b-2 px-3 py-2 text-sm font-medium ${isActive ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-600 hover:text-slate-900'}`
            }
          >
            {label}
          </NavLink>
        ))}
      </nav>
    </div>
  );
}
