import { useEffect, useState, type ComponentType } from 'react';

/**
 * The island of /booking/<token>: renders what the prerender wrote, then loads the page's
 * real code (manage-booking.tsx), so the other public pages never download it.
 */
export function ManageBookingIsland() {
  const [Manage, setManage] = useState<ComponentType | null>(null);
  useEffect(() => {
    import('./manage-booking.tsx').then(
      (m) => setManage(() => m.ManageBooking),
      () => setManage(() => LoadFailed),
    );
  }, []);
  return Manage ? (
    <Manage />
  ) : (
    <p role="status" className="text-slate-600">
      Loading your booking…
    </p>
  );
}

function LoadFailed() {
  return (
    <p role="alert" className="text-slate-700">
      This page could not be loaded. Please check your connection and reload it.
    </p>
  );
}
