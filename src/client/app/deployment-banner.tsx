import { useCurrentUser } from '#client/lib/auth.tsx';
import { useDeploymentWarnings } from '#client/features/settings/api/deployment.ts';

/** For owners: set-up mistakes the server has seen (a proxy it does not trust, plain http from afar), with what to do. */
export function DeploymentBanner() {
  const isOwner = useCurrentUser()?.role === 'owner';
  const { data } = useDeploymentWarnings(isOwner);
  if (!isOwner || !data || data.warnings.length === 0) return null;
  return (
    <div
      role="region"
      aria-label="Server set-up"
      className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:px-6"
    >
      <p className="font-semibold">Check the server’s set-up</p>
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {data.warnings.map((w) => (
          <li key={w.code}>{w.message}</li>
        ))}
      </ul>
    </div>
  );
}
