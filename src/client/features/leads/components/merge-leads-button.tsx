import { useState } from 'react';
import type { Lead } from '#shared/schemas/lead';
import { GitMerge } from '#client/components/icons.tsx';
import { lazyDialog } from '#client/components/ui/lazy-dialog.tsx';
import { useDuplicates } from '../api/get-duplicates.ts';
import { Button } from '#client/components/ui/button.tsx';

const MergeLeadsDialog = lazyDialog(
  () => import('./merge-leads-dialog.tsx').then((m) => m.MergeLeadsDialog),
  (p) => p.open,
);

/**
 * "Merge", for the lead page's header: shown only when other leads have this lead's email
 * (duplicates from before the public form joined a known email to its lead).
 */
export function MergeLeadsButton({ lead }: { lead: Lead }) {
  const duplicates = useDuplicates(lead.id);
  // The duplicates as they were when the dialog opened: a merge empties the list (the refetch
  // lands before the merge's own callbacks), and the dialog must stay to finish its work.
  const [openWith, setOpenWith] = useState<typeof others | null>(null);
  const others = duplicates.data?.leads ?? [];
  const dialog = openWith ? (
    <MergeLeadsDialog lead={lead} duplicates={openWith} open onOpenChange={(open) => !open && setOpenWith(null)} />
  ) : null;
  // One shape whether or not the button shows, so the open dialog is never remounted.
  return (
    <>
      {others.length > 0 && (
        <Button onClick={() => setOpenWith(others)} variant="secondary" size="sm">
          <GitMerge aria-hidden="true" className="size-4" />
          Merge
        </Button>
      )}
      {dialog}
    </>
  );
}
