import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PipelineSettings } from '#shared/schemas/pipeline';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

/** The pipeline's stages (by status, then position) and lost reasons: the lead page's stage menu, Settings → Pipeline. */
export const pipelineQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.pipeline,
    queryFn: () => apiRequest<PipelineSettings>('GET', '/api/pipeline/stages'),
    staleTime: 60_000,
  });

export const usePipeline = () => useQuery(pipelineQueryOptions());
