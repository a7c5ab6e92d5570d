import { CalendarClock, CalendarDays, DollarSign, Sparkles, Users, type Icon } from '#client/components/icons.tsx';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Overview } from '#shared/schemas/overview';
import { formatCents } from '#client/lib/money.ts';

type Card = { label: string; value: number | undefined; icon: Icon; to?: string; tint: string; money?: boolean };

function cardsOf(overview: Overview | undefined): Card[] {
  return [
    { label: 'Total Leads', value: overview?.total_leads, icon: Users, to: '/dashboard/leads', tint: 'bg-blue-100 text-blue-700' },
    {
      label: 'Total Appointments',
      value: overview?.total_appointments,
      icon: CalendarDays,
      to: '/dashboard/appointments',
      tint: 'bg-purple-100 text-purple-700',
    },
    { label: 'New Leads', value: overview?.new_leads, icon: Sparkles, tint: 'bg-green-100 text-green-700' },
    {
      label: 'Upcoming Appointments',
      value: overview?.upcoming_appointments,
      icon: CalendarClock,
      to: '/dashboard/appointments',
      tint: 'bg-amber-100 text-amber-700',
    },
    // The board's forecast: open deals' fees weighted by their stages' chance to win.
    {
      label: 'Expected fees',
      value: overview?.expected_fees_cents,
      icon: DollarSign,
      to: '/dashboard/pipeline',
      tint: 'bg-emerald-100 text-emerald-700',
      money: true,
    },
  ];
}

/** The four counts and the forecast; four of them lead to their pages. */
export function StatCards({ overview }: { overview: Overview | undefined }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-5">
      {cardsOf(overview).map(({ label, value, icon: Icon, to, tint, money }) => {
        const content: ReactNode = (
          <>
            <span className={`flex size-11 shrink-0 items-center justify-center rounded-full ${tint}`}>
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <span>
              <span className="block text-sm text-slate-600">{label}</span>
              <span className="block text-2xl font-bold text-slate-900" data-testid="stat-value">
                {value === undefined ? '—' : money ? formatCents(value) : value.toLocaleString('en-US')}
              </span>
            </span>
          </>
        );
        const cardClass = 'flex h-full items-center gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm';
        return (
          <li key={label}>
            {to ? (
              <Link to={to} className={`${cardClass} hover:border-blue-300 hover:shadow`}>
                {content}
              </Link>
            ) : (
              <div className={cardClass}>{content}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
