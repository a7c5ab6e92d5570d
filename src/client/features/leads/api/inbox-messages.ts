import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InboxResponse } from '#shared/schemas/inbox';
import type { CreateLeadRequest, Lead, LeadListResponse } from '#shared/schemas/lead';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export type InboxView = 'open' | 'dismissed';

/** The Inbox, newest first; refreshed by the live stream whenever mail arrives or moves. */
export const useInbox = (view: InboxView) =>
  useQuery({
    queryKey: queryKeys.inbox(view),
    queryFn: () => apiRequest<InboxResponse>('GET', `/api/inbox?view=${view}`),
    placeholderData: keepPreviousData,
  });

function useInboxMutation<T>(mutationFn: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.leads.all }) });
}

export const useAttachInbound = () =>
  useInboxMutation(({ id, leadId }: { id: string; leadId: string }) =>
    apiRequest('POST', apiPath`/api/inbox/${id}/attach`, { lead_id: leadId }),
  );

export const useLeadFromInbound = () =>
  useInboxMutation(({ id, lead }: { id: string; lead: CreateLeadRequest }) =>
    apiRequest<Lead>('POST', apiPath`/api/inbox/${id}/lead`, lead),
  );

export const useDismissInbound = () =>
  useInboxMutation(({ id, dismissed }: { id: string; dismissed: boolean }) =>
    apiRequest('POST', dismissed ? apiPath`/api/inbox/${id}/dismiss` : apiPath`/api/inbox/${id}/restore`),
  );

/** A few leads matching what was typed, to put a message on one's page (there may be 100,000). */
export const useLeadMatches = (search: string) =>
  useQuery({
    queryKey: queryKeys.leadPicker(search.trim()),
    queryFn: async () => {
      const params = new URLSearchParams({ page_size: '8' });
      if (search.trim()) params.set('search', search.trim().slice(0, 200));
      return (await apiRequest<LeadListResponse>('GET', `/api/leads?${params.toString()}`)).leads;
    },
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
