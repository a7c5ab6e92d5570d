import { useMutation } from '@tanstack/react-query';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';

/** Where a file that came with a reply downloads from. */
export const attachmentUrl = (replyId: string, attachmentId: string) => apiPath`/api/replies/${replyId}/attachments/${attachmentId}`;

/**
 * The lead's replies, read (their page showed them). The change refreshes open pages through
 * the live stream, so nothing is invalidated here.
 */
export const useMarkRepliesRead = () =>
  useMutation({ mutationFn: (leadId: string) => apiRequest<{ marked: number }>('POST', apiPath`/api/leads/${leadId}/replies/read`) });
