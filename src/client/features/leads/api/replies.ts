import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '#client/lib/query-keys.ts';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';

/** Where a file that came with a reply downloads from. */
export const attachmentUrl = (replyId: string, attachmentId: string) => apiPath`/api/replies/${replyId}/attachments/${attachmentId}`;

/**
 * The lead's replies, read (their page showed them). The change refreshes open pages through
 * the live stream, so nothing is invalidated here.
 */
export const useMarkRepliesRead = () =>
  useMutation({
    mutationFn: ({ leadId, upTo }: { leadId: string; upTo: string }) =>
      apiRequest<{ marked: number }>(
        'POST',
        `${apiPath`/api/leads/${leadId}/replies/read`}?${new URLSearchParams({ up_to: upTo }).toString()}`,
      ),
  });

/** A reply that seemed to ask us to stop writing does not: the notice goes. */
export function useNotAStopRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ leadId, replyId }: { leadId: string; replyId: string }) =>
      apiRequest<{ id: string }>('POST', apiPath`/api/leads/${leadId}/replies/${replyId}/not-a-stop-request`),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.leads.all }),
  });
}
