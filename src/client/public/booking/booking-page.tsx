import { PublicLayout } from '#client/public/layout/public-layout.tsx';
import { Island } from '../island.tsx';

/**
 * /booking/<token>: the private page of a booked call, where the person who booked it can
 * see, move or cancel it. The token is read in the browser; the page itself is the same for
 * everyone (prerendered, never indexed, never cached).
 */
export function BookingPage() {
  return (
    <PublicLayout>
      <div className="bg-slate-50 px-4 pt-28 pb-16 sm:pt-32">
        <div className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
          <h1 className="text-3xl font-bold tracking-tight text-navy-900">Your free call</h1>
          <div className="mt-6">
            <Island name="manage-booking" />
          </div>
        </div>
      </div>
    </PublicLayout>
  );
}
