import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoggedCall, LogCallRequest } from '#shared/schemas/lead-workspace';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Logs a call with the lead; its timeline shows it. */
export function useLogCall(leadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (call: LogCallRequest) => apiRequest<LoggedCall>('POST', apiPath`/api/leads/${leadId}/calls`, call),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.leads.timeline(leadId) }),
  });
}
