import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export type DeploymentWarnings = { warnings: { code: string; message: string }[] };

/** For owners: set-up mistakes the server has seen (a proxy it does not trust, plain http from afar). */
export const useDeploymentWarnings = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.settings.deployment,
    queryFn: () => apiRequest<DeploymentWarnings>('GET', '/api/settings/deployment'),
    enabled,
    staleTime: 5 * 60_000,
  });
