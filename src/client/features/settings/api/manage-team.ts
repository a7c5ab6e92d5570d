import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '#shared/schemas/auth';
import type { InviteCreated, Team, TeamMember } from '#shared/schemas/team';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const useTeam = () => useQuery({ queryKey: queryKeys.team, queryFn: () => apiRequest<Team>('GET', '/api/team') });

/** A change to the team; the list (and the admins a lead can be given to) is read again after it. */
function useTeamChange<V, R>(change: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () =>
      Promise.all([client.invalidateQueries({ queryKey: queryKeys.team }), client.invalidateQueries({ queryKey: queryKeys.admins })]),
  });
}

export const useInvite = () =>
  useTeamChange((body: { email: string; role: Role }) => apiRequest<InviteCreated>('POST', '/api/team/invites', body));
export const useRevokeInvite = () => useTeamChange((id: string) => apiRequest('DELETE', apiPath`/api/team/invites/${id}`));
export const useChangeRole = () =>
  useTeamChange(({ id, role }: { id: string; role: Role }) => apiRequest<TeamMember>('PATCH', apiPath`/api/team/members/${id}`, { role }));
export const useSetActive = () =>
  useTeamChange(({ id, active }: { id: string; active: boolean }) =>
    apiRequest<TeamMember>('POST', active ? apiPath`/api/team/members/${id}/reactivate` : apiPath`/api/team/members/${id}/deactivate`),
  );
export const useRemoveMember = () => useTeamChange((id: string) => apiRequest('DELETE', apiPath`/api/team/members/${id}`));
export const useReassignLeads = () =>
  useTeamChange(({ id, to }: { id: string; to: string | null }) =>
    apiRequest<{ moved: number }>('POST', apiPath`/api/team/members/${id}/reassign`, { to }),
  );
