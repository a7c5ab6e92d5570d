import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PipelineSettings } from '#shared/schemas/pipeline';
import { apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';

export const getPipeline = () => apiRequest<PipelineSettings>('GET', '/api/pipeline/stages');

/** The pipeline's stages (by status, then position) and lost reasons: the board, the lead page's stage menu, Settings → Pipeline. */
export const pipelineQueryOptions = () => queryOptions({ queryKey: queryKeys.pipeline, queryFn: getPipeline, staleTime: 60_000 });

export const usePipeline = () => useQuery(pipelineQueryOptions());
