import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Lead } from '#shared/schemas/lead';
import type { PipelineBoard } from '#shared/schemas/pipeline-board';
import { apiPath, apiRequest } from '#client/lib/api-client.ts';
import { queryKeys } from '#client/lib/query-keys.ts';
import { moveCard } from '../board-move.ts';

export type MoveRequest = { leadId: string; stageId: string; lostReason?: string };

const moveLead = ({ leadId, stageId, lostReason }: MoveRequest) =>
  apiRequest<Lead>('PATCH', apiPath`/api/leads/${leadId}`, {
    stage_id: stageId,
    ...(lostReason !== undefined && { lost_reason: lostReason }),
  });

/**
 * A card moved on the board: shown in its new column at once (every board view in the cache),
 * put back if the server refuses. Whatever the answer, the boards refetch, so two people moving
 * one card at once both end up seeing the stage the database kept.
 */
export function useMoveLead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: moveLead,
    onMutate: async ({ leadId, stageId }) => {
      await client.cancelQueries({ queryKey: queryKeys.leads.boardAll });
      const before = client.getQueriesData<PipelineBoard>({ queryKey: queryKeys.leads.boardAll });
      client.setQueriesData<PipelineBoard>({ queryKey: queryKeys.leads.boardAll }, (board) => board && moveCard(board, leadId, stageId));
      return { before };
    },
    onError: (_error, _move, context) => {
      for (const [queryKey, data] of context?.before ?? []) client.setQueryData(queryKey, data);
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.leads.all }),
  });
}
