import { format } from 'date-fns';
import { Timer } from '#client/components/icons.tsx';
import { useEffect } from 'react';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { formatDuration } from '#client/lib/format.ts';
import { useOverview } from './api/get-overview.ts';
import { FollowUpsDue } from './components/follow-ups-due.tsx';
import { MyTasksDue } from './components/my-tasks-due.tsx';
import { RepliesToRead } from './components/replies-to-read.tsx';
import { RecentLeads } from './components/recent-leads.tsx';
import { StatCards } from './components/stat-cards.tsx';
import { UpcomingAppointments } from './components/upcoming-appointments.tsx';

/** /dashboard: the counts, speed to lead, the newest leads and the next appointments. */
export function OverviewPage() {
  const overview = useOverview();

  // A failed overview load is only logged (docs/product-rules.md, "Silent errors").
  useEffect(() => {
    if (overview.isError) console.error('Loading the overview failed', overview.error);
  }, [overview.isError, overview.error]);

  const data = overview.data;
  const followUps = data?.follow_ups ?? [];

  return (
    <section aria-labelledby="overview-heading" className="space-y-6">
      <div>
        <h1 id="overview-heading" className="text-2xl font-bold text-slate-900">
          Dashboard Overview
        </h1>
        <p className="mt-1 text-slate-600">{format(new Date(), 'EEEE, MMMM d, yyyy')}</p>
      </div>
      {overview.isPending ? (
        <Spinner className="py-16" label="Loading overview..." />
      ) : (
        <>
          <StatCards overview={overview.data} />
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Timer aria-hidden="true" className="size-4 text-slate-500" />
            <span>Median time to contact (30 days):</span>
            <span className="font-semibold text-slate-900" data-testid="median-time-to-contact">
              {formatDuration(overview.data?.median_seconds_to_contacted)}
            </span>
            <span aria-hidden="true">·</span>
            <span>No-shows (30 days):</span>
            <span className="font-semibold text-slate-900" data-testid="no-shows">
              {(overview.data?.no_shows_30_days ?? 0).toLocaleString('en-US')}
            </span>
          </p>
          <div className="grid gap-6 lg:grid-cols-2">
            <MyTasksDue />
            <FollowUpsDue followUps={followUps} />
            <RepliesToRead replies={overview.data?.replies_to_read ?? []} />
          </div>
          <div className="grid gap-6 lg:grid-cols-2">
            <RecentLeads leads={overview.data?.recent_leads ?? []} />
            <UpcomingAppointments appointments={overview.data?.upcoming ?? []} />
          </div>
        </>
      )}
    </section>
  );
}
