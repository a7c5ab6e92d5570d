import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LeadEmail, LeadEmailRequest } from '#shared/schemas/lead-workspace';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const sendLeadEmail = ({ leadId, message }: { leadId: string; message: LeadEmailRequest }) =>
  apiRequest<LeadEmail>('POST', apiPath`/api/leads/${leadId}/emails`, message);

/** A message to the lead; its entry then shows on the lead's timeline. */
export function useSendLeadEmail() {
  const client = useQueryClient();
  return useMutation({ mutationFn: sendLeadEmail, onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.leads.all }) });
}

export const retryLeadEmail = ({ leadId, emailId }: { leadId: string; emailId: string }) =>
  apiRequest<{ id: string }>('POST', apiPath`/api/leads/${leadId}/emails/${emailId}/retry`);

/** A message to the lead that failed or was not sent, queued again; the timeline shows it queued. */
export function useRetryLeadEmail() {
  const client = useQueryClient();
  return useMutation({ mutationFn: retryLeadEmail, onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.leads.all }) });
}
