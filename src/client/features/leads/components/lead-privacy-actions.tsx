import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Lead } from '#shared/schemas/lead';
import { Download, Eraser } from '#client/components/icons.tsx';
import { ConfirmDialog } from '#client/components/ui/lazy-dialog.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useEraseLead } from '../api/erase-lead.ts';
import { leadExportPath } from '../api/export-lead.ts';

type Props = {
  lead: Pick<Lead, 'id' | 'full_name'>;
  /** After the person is erased; by default the Leads Manager opens (the lead is gone). */
  onErased?: () => void;
};

/** What the Erase confirmation says is removed and what stays (docs/product-rules.md, "Personal data requests"). */
export const eraseConfirmation = (name: string) =>
  `Everything we hold about ${name} will be removed: the lead, its notes, timeline and emails, the notifications that name them and their visits to the site. Their appointments stay on the calendar without their name, notes or place. This cannot be undone.`;

const buttonClass =
  'inline-flex items-center justify-center gap-2 rounded-md border px-3 py-2 text-sm font-medium shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

/**
 * A person's data requests, for the lead page's header: "Export everything" downloads what we
 * hold about them as JSON; "Erase" removes them after a confirmation saying what goes and what stays.
 */
export function LeadPrivacyActions({ lead, onErased }: Props) {
  const [confirming, setConfirming] = useState(false);
  const erase = useEraseLead();
  const navigate = useNavigate();

  const confirmErase = () =>
    erase.mutate(lead.id, {
      onSuccess: (answer) => {
        toast.success('Lead erased successfully');
        // Copies of their calls in a team member's own calendar that could not be removed yet.
        if (answer.calendars_unreachable.length > 0)
          toast.error(
            `Their calls are still in ${answer.calendars_unreachable.join(', ')}: the calendar could not be reached. They will be removed when it answers.`,
          );
        setConfirming(false);
        if (onErased) onErased();
        else void navigate('/dashboard/leads', { replace: true });
      },
      onError: (error) => {
        console.error('Erasing the lead failed', error);
        toast.error('Failed to erase lead');
        setConfirming(false);
      },
    });

  return (
    <div className="flex flex-wrap gap-2">
      <a href={leadExportPath(lead.id)} download className={`${buttonClass} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}>
        <Download aria-hidden="true" className="size-4" />
        Export everything
      </a>
      <button
        type="button"
        onClick={() => setConfirming(true)}
        className={`${buttonClass} border-red-200 bg-white text-red-700 hover:bg-red-50`}
      >
        <Eraser aria-hidden="true" className="size-4" />
        Erase
      </button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !open && !erase.isPending && setConfirming(false)}
        title={`Erase ${lead.full_name}?`}
        description={eraseConfirmation(lead.full_name)}
        confirmLabel="Erase"
        busy={erase.isPending}
        onConfirm={confirmErase}
      />
    </div>
  );
}
