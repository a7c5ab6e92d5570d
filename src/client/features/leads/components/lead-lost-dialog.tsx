import type { LeadDetail } from '#shared/schemas/lead';
import type { LostReason, PipelineStage } from '#shared/schemas/pipeline';
import { LoseDealDialog as LoseDealPrompt } from '#client/components/lose-deal-dialog.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { usePatchLead } from '../api/patch-lead.ts';

/** The lead page's Lost: the reason asked for, then the stage and reason saved in one change. */
export function LoseDealDialog({
  lead,
  stage,
  reasons,
  onClose,
}: {
  lead: LeadDetail;
  /** The Dropped stage chosen; undefined: closed. */
  stage: PipelineStage | undefined;
  reasons: LostReason[];
  onClose: () => void;
}) {
  const patch = usePatchLead(lead.id);
  return (
    <LoseDealPrompt
      leadName={lead.full_name}
      stage={stage}
      reasons={reasons}
      busy={patch.isPending}
      onClose={onClose}
      onConfirm={(reason, fail) =>
        stage &&
        patch.mutate(
          { stage_id: stage.id, lost_reason: reason },
          {
            onSuccess: () => {
              toast.success(`Moved to ${stage.name}: ${reason}.`);
              onClose();
            },
            onError: (e) => {
              console.error('Marking the deal lost failed', e);
              if (e instanceof ApiError && e.fields?.lost_reason) return fail(e.fields.lost_reason);
              toast.error(e instanceof ApiError && e.status < 500 ? e.message : 'Failed to update lead');
            },
          },
        )
      }
    />
  );
}
