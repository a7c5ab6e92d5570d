import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { lazyDialog } from '#client/components/ui/lazy-dialog.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { LoginPage } from '#client/features/auth/login-page.tsx';
import { OverviewPage } from '#client/features/dashboard/overview-page.tsx';
import { DashboardLayout } from './dashboard-layout.tsx';
import { OwnerRoute } from './owner-route.tsx';
import { ProtectedRoute } from './protected-route.tsx';

// The Leads, Appointments and Analytics pages load on first visit (the layout shows a spinner
// meanwhile), so sign-in and the Overview download only what they show.
const LeadsPage = lazy(() => import('#client/features/leads/leads-page.tsx').then((m) => ({ default: m.LeadsPage })));
const LeadImportPage = lazy(() =>
  import('#client/features/leads/import/lead-import-page.tsx').then((m) => ({ default: m.LeadImportPage })),
);
const LeadPage = lazy(() => import('#client/features/leads/lead-page.tsx').then((m) => ({ default: m.LeadPage })));
// The lead page schedules with the appointments feature's dialog (features do not import each other).
const ScheduleAppointmentDialog = lazyDialog(
  () => import('#client/features/appointments/components/schedule-appointment-dialog.tsx').then((m) => m.ScheduleAppointmentDialog),
  (p) => p.open,
);
const AppointmentsPage = lazy(() =>
  import('#client/features/appointments/appointments-page.tsx').then((m) => ({ default: m.AppointmentsPage })),
);
const AnalyticsPage = lazy(() => import('#client/features/analytics/analytics-page.tsx').then((m) => ({ default: m.AnalyticsPage })));
const SetupPage = lazy(() => import('#client/features/auth/setup-page.tsx').then((m) => ({ default: m.SetupPage })));
const InvitePage = lazy(() => import('#client/features/auth/invite-page.tsx').then((m) => ({ default: m.InvitePage })));
const ForgotPasswordPage = lazy(() =>
  import('#client/features/auth/forgot-password-page.tsx').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('#client/features/auth/reset-password-page.tsx').then((m) => ({ default: m.ResetPasswordPage })),
);
const AccountPage = lazy(() => import('#client/features/account/account-page.tsx').then((m) => ({ default: m.AccountPage })));
const SecuritySettingsPage = lazy(() =>
  import('#client/features/settings/security-settings-page.tsx').then((m) => ({ default: m.SecuritySettingsPage })),
);
const AuditLogPage = lazy(() => import('#client/features/settings/audit-log-page.tsx').then((m) => ({ default: m.AuditLogPage })));
const EmailTemplatesPage = lazy(() =>
  import('#client/features/settings/email-templates-page.tsx').then((m) => ({ default: m.EmailTemplatesPage })),
);
const PipelinePage = lazy(() => import('#client/features/settings/pipeline-page.tsx').then((m) => ({ default: m.PipelinePage })));
const IntegrationsPage = lazy(() =>
  import('#client/features/settings/integrations-page.tsx').then((m) => ({ default: m.IntegrationsPage })),
);
const MyTasksPage = lazy(() => import('#client/features/tasks/my-tasks-page.tsx').then((m) => ({ default: m.MyTasksPage })));
// The board brings the drag and drop library with it: only its own chunk carries it.
const PipelineBoardPage = lazy(() =>
  import('#client/features/pipeline/pipeline-board-page.tsx').then((m) => ({ default: m.PipelineBoardPage })),
);
const InboxPage = lazy(() => import('#client/features/leads/inbox-page.tsx').then((m) => ({ default: m.InboxPage })));
const TeamPage = lazy(() => import('#client/features/settings/team-page.tsx').then((m) => ({ default: m.TeamPage })));
const EmailSettingsPage = lazy(() =>
  import('#client/features/settings/email-settings-page.tsx').then((m) => ({ default: m.EmailSettingsPage })),
);
const WebsiteSettingsPage = lazy(() =>
  import('#client/features/settings/website-settings-page.tsx').then((m) => ({ default: m.WebsiteSettingsPage })),
);
const BookingSettingsPage = lazy(() =>
  import('#client/features/settings/booking-settings-page.tsx').then((m) => ({ default: m.BookingSettingsPage })),
);

/**
 * The admin app's routes (React Router's declarative mode: the app needs no loaders or
 * actions, and that mode is half the router's size). The public pages are separate,
 * prerendered documents.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/setup/:token" element={<SignedOutPage page={<SetupPage />} />} />
      <Route path="/invite/:token" element={<SignedOutPage page={<InvitePage />} />} />
      <Route path="/forgot-password" element={<SignedOutPage page={<ForgotPasswordPage />} />} />
      <Route path="/reset-password/:token" element={<SignedOutPage page={<ResetPasswordPage />} />} />
      <Route path="/dashboard" element={<ProtectedRoute />}>
        <Route element={<DashboardLayout />}>
          <Route index element={<OverviewPage />} />
          <Route path="leads" element={<LeadsPage />} />
          <Route path="leads/import" element={<LeadImportPage />} />
          <Route path="inbox" element={<InboxPage />} />
          <Route path="tasks" element={<MyTasksPage />} />
          {/* A lead's own page (emails, notifications and every lead name link here). */}
          <Route path="leads/:id" element={<LeadPage scheduleDialog={ScheduleAppointmentDialog} />} />
          <Route path="pipeline" element={<PipelineBoardPage />} />
          <Route path="appointments" element={<AppointmentsPage />} />
          <Route path="analytics" element={<AnalyticsPage />} />
          <Route path="account" element={<AccountPage />} />
          <Route element={<OwnerRoute />}>
            <Route path="settings" element={<Navigate to="/dashboard/settings/email" replace />} />
            <Route path="settings/email" element={<EmailSettingsPage />} />
            <Route path="settings/email-templates" element={<EmailTemplatesPage />} />
            <Route path="settings/pipeline" element={<PipelinePage />} />
            <Route path="settings/booking" element={<BookingSettingsPage />} />
            <Route path="settings/website" element={<WebsiteSettingsPage />} />
            <Route path="settings/team" element={<TeamPage />} />
            <Route path="settings/security" element={<SecuritySettingsPage />} />
            <Route path="settings/integrations" element={<IntegrationsPage />} />
            <Route path="settings/audit" element={<AuditLogPage />} />
          </Route>
          <Route path="*" element={<Navigate to="/dashboard" replace />} />
        </Route>
      </Route>
    </Routes>
  );
}

/** A page of a one-time link (first-run set-up, an invitation), loaded when opened. */
function SignedOutPage({ page }: { page: ReactNode }) {
  return <Suspense fallback={<Spinner className="min-h-screen" label="Loading..." />}>{page}</Suspense>;
}
