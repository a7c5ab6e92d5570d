import { useMutation, useQuery } from '@tanstack/react-query';
import type { EmailTemplateList, TemplatePreview, TemplatePreviewRequest } from '#shared/schemas/email-template';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** The firm's email templates, for the Template picker of Send email (loaded when the dialog opens). */
export const useTemplateChoices = () =>
  useQuery({
    queryKey: queryKeys.emailTemplates,
    queryFn: async () => (await apiRequest<EmailTemplateList>('GET', '/api/email-templates')).templates,
    staleTime: 30_000,
  });

/** A template's subject and text filled in for this lead ({{booking_link}} stays until sent). */
export const useFillTemplate = () =>
  useMutation({
    mutationFn: (request: TemplatePreviewRequest) => apiRequest<TemplatePreview>('POST', '/api/email-templates/preview', request),
  });
