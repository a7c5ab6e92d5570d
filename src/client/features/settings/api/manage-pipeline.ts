import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateStageRequest, LostReason, PipelineStage, UpdateStageRequest } from '#shared/schemas/pipeline';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** Every change refreshes the pipeline and the leads (their stage names). */
function usePipelineMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.leads.all }) });
}

export const useCreateStage = () =>
  usePipelineMutation((stage: CreateStageRequest) => apiRequest<PipelineStage>('POST', '/api/pipeline/stages', stage));

export const useUpdateStage = () =>
  usePipelineMutation(({ id, change }: { id: string; change: UpdateStageRequest }) =>
    apiRequest<PipelineStage>('PATCH', apiPath`/api/pipeline/stages/${id}`, change),
  );

export const useDeleteStage = () =>
  usePipelineMutation(({ id, moveTo }: { id: string; moveTo: string }) =>
    apiRequest<{ id: string; moved: number }>('DELETE', `${apiPath`/api/pipeline/stages/${id}`}?move_to=${encodeURIComponent(moveTo)}`),
  );

export const useCreateLostReason = () =>
  usePipelineMutation((name: string) => apiRequest<LostReason>('POST', '/api/pipeline/lost-reasons', { name }));

export const useRenameLostReason = () =>
  usePipelineMutation(({ id, name }: { id: string; name: string }) =>
    apiRequest<LostReason>('PATCH', apiPath`/api/pipeline/lost-reasons/${id}`, { name }),
  );

export const useDeleteLostReason = () =>
  usePipelineMutation((id: string) => apiRequest<{ id: string }>('DELETE', apiPath`/api/pipeline/lost-reasons/${id}`));
