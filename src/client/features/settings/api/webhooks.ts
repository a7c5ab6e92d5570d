import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  WebhookAttemptList,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookEndpointRequest,
  WebhookEndpointUpdate,
  WebhookReplay,
  WebhookSecret,
  WebhookTestResult,
} from '#shared/schemas/webhook';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Settings → Integrations → Webhooks: every operation of /api/webhooks (docs/webhooks.md). */

export const useWebhooks = () =>
  useQuery({
    queryKey: queryKeys.settings.webhooks,
    queryFn: async () => (await apiRequest<WebhookEndpointList>('GET', '/api/webhooks')).endpoints,
  });

/** Asked only when an owner opens it. */
export const useWebhookSecret = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.settings.webhookSecret(id),
    queryFn: () => apiRequest<WebhookSecret>('GET', apiPath`/api/webhooks/${id}/secret`),
    enabled,
    staleTime: 0,
  });

export const useWebhookLog = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.settings.webhookLog(id),
    queryFn: async () => (await apiRequest<WebhookAttemptList>('GET', apiPath`/api/webhooks/${id}/deliveries`)).attempts,
    enabled,
  });

export function useAddWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: WebhookEndpointRequest) => apiRequest<WebhookEndpointCreated>('POST', '/api/webhooks', request),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.settings.webhooks }),
  });
}

export function useUpdateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: WebhookEndpointUpdate }) =>
      apiRequest<WebhookEndpoint>('PATCH', apiPath`/api/webhooks/${id}`, change),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.settings.webhooks }),
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<{ id: string }>('DELETE', apiPath`/api/webhooks/${id}`),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.settings.webhooks }),
  });
}

export function useTestWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<WebhookTestResult>('POST', apiPath`/api/webhooks/${id}/test`),
    onSettled: (_r, _e, id) => client.invalidateQueries({ queryKey: queryKeys.settings.webhookLog(id) }),
  });
}

export function useReplayWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) =>
      apiRequest<WebhookReplay>('POST', apiPath`/api/webhooks/${id}/deliveries/${deliveryId}/replay`),
    onSettled: (_r, _e, { id }) => client.invalidateQueries({ queryKey: queryKeys.settings.webhookLog(id) }),
  });
}
