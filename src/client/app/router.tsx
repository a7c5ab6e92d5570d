import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from '#client/features/auth/login-page.tsx';
import { OverviewPage } from '#client/features/dashboard/overview-page.tsx';
import { DashboardLayout } from './dashboard-layout.tsx';
import { ProtectedRoute } from './protected-route.tsx';

/**
 * The admin app's routes; the public pages are separate, prerendered documents. The Leads,
 * Appointments and Analytics pages load on first visit, so sign-in and the Overview download less.
 */
export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  {
    path: '/dashboard',
    element: <ProtectedRoute />,
    children: [
      {
        element: <DashboardLayout />,
        children: [
          { index: true, element: <OverviewPage /> },
          { path: 'leads', lazy: () => import('#client/features/leads/leads-page.tsx').then((m) => ({ Component: m.LeadsPage })) },
          {
            path: 'appointments',
            lazy: () => import('#client/features/appointments/appointments-page.tsx').then((m) => ({ Component: m.AppointmentsPage })),
          },
          // recharts is large: it loads with this page only.
          {
            path: 'analytics',
            lazy: () => import('#client/features/analytics/analytics-page.tsx').then((m) => ({ Component: m.AnalyticsPage })),
          },
          { path: '*', element: <Navigate to="/dashboard" replace /> },
        ],
      },
    ],
  },
]);
