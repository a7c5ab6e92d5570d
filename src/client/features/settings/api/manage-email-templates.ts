import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  EmailTemplate,
  EmailTemplateList,
  EmailTemplateRequest,
  TemplatePreview,
  TemplatePreviewRequest,
} from '#shared/schemas/email-template';
import type { LeadListResponse } from '#shared/schemas/lead';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const useEmailTemplates = () =>
  useQuery({
    queryKey: queryKeys.emailTemplates,
    queryFn: async () => (await apiRequest<EmailTemplateList>('GET', '/api/email-templates')).templates,
  });

/** Adds a template (no id) or saves one. */
export function useSaveEmailTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, template }: { id?: string; template: EmailTemplateRequest }) =>
      id
        ? apiRequest<EmailTemplate>('PUT', apiPath`/api/email-templates/${id}`, template)
        : apiRequest<EmailTemplate>('POST', '/api/email-templates', template),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.emailTemplates }),
  });
}

export function useDeleteEmailTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<{ id: string }>('DELETE', apiPath`/api/email-templates/${id}`),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.emailTemplates }),
  });
}

/** The text with its merge fields filled in for a real lead. */
export const usePreviewTemplate = () =>
  useMutation({
    mutationFn: (request: TemplatePreviewRequest) => apiRequest<TemplatePreview>('POST', '/api/email-templates/preview', request),
  });

/** The ten newest leads, to preview a template with. */
export const usePreviewLeads = () =>
  useQuery({
    queryKey: queryKeys.previewLeads,
    queryFn: async () =>
      (await apiRequest<LeadListResponse>('GET', '/api/leads?page_size=10')).leads.map(({ id, full_name }) => ({ id, full_name })),
    staleTime: 60_000,
  });
