import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from '#client/features/auth/login-page.tsx';
import { OverviewPage, SectionNotBuiltPage } from '#client/features/dashboard/overview-page.tsx';
import { DashboardLayout } from './dashboard-layout.tsx';
import { ProtectedRoute } from './protected-route.tsx';

/** The admin app's routes; the public pages are separate, prerendered documents. */
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
          { path: 'leads', element: <SectionNotBuiltPage title="Leads" /> },
          { path: 'appointments', element: <SectionNotBuiltPage title="Appointments" /> },
          { path: 'analytics', element: <SectionNotBuiltPage title="Analytics" /> },
          { path: '*', element: <Navigate to="/dashboard" replace /> },
        ],
      },
    ],
  },
]);
