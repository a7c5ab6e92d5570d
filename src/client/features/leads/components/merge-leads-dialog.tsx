import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Lead } from '#shared/schemas/lead';
import type { MergeField, MergeRequest } from '#shared/schemas/lead-privacy';
import { Modal } from '#client/components/ui/modal.tsx';
import { RadioGroup } from '#client/components/ui/radio-group.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { formatDate } from '#client/lib/format.ts';
import { useMergeLeads } from '../api/merge-leads.ts';
import { differingFields, mergeFieldText } from '../lead-merge-fields.ts';

type Side = 'this' | 'other';

type Props = {
  /** The lead kept: the one whose page this is. */
  lead: Lead;
  /** The other leads with its email (at least one). */
  duplicates: Lead[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

// docs/product-rules.md, "Personal data requests".
export const MERGE_CONFIRMATION = 'Merge these leads? This cannot be undone.';

const secondary = 'rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50';
const primary = 'rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60';

/**
 * Merge a duplicate into this lead: pick the duplicate (when there are several), choose per
 * field whose value stays (only fields that differ are asked; the rest is the same), confirm
 * once, and the page of the kept lead opens.
 */
export function MergeLeadsDialog({ lead, duplicates, open, onOpenChange }: Props) {
  const [otherId, setOtherId] = useState(duplicates[0]?.id ?? '');
  const [keep, setKeep] = useState<Partial<Record<MergeField, Side>>>({});
  const [confirming, setConfirming] = useState(false);
  const merge = useMergeLeads();
  const navigate = useNavigate();
  const other = duplicates.find((d) => d.id === otherId) ?? duplicates[0];
  if (!other) return null;
  const fields = differingFields(lead, other);

  const close = () => {
    setConfirming(false);
    onOpenChange(false);
  };
  const submit = () => {
    const chosen = Object.fromEntries(fields.map(({ field }) => [field, keep[field] ?? 'this'])) as MergeRequest['keep'];
    merge.mutate(
      { id: lead.id, other_id: other.id, keep: chosen },
      {
        onSuccess: () => {
          toast.success('Leads merged successfully');
          close();
          void navigate(`/dashboard/leads/${lead.id}`);
        },
        onError: (error) => {
          console.error('Merging the leads failed', error);
          toast.error('Failed to merge leads');
          setConfirming(false);
        },
      },
    );
  };

  return (
    <Modal open={open} onOpenChange={(next) => (next ? onOpenChange(true) : !merge.isPending && close())} title="Merge duplicate leads">
      {confirming ? (
        <div className="space-y-5">
          <p id="merge-confirmation" className="text-sm text-slate-700">
            {MERGE_CONFIRMATION}
          </p>
          <div className="flex justify-end gap-3">
            {/* Focus lands on the way back, with the question read out: the irreversible step is one more press. */}
            <button
              type="button"
              autoFocus
              aria-describedby="merge-confirmation"
              onClick={() => setConfirming(false)}
              disabled={merge.isPending}
              className={secondary}
            >
              Back
            </button>
            <button type="button" onClick={submit} disabled={merge.isPending} className={primary}>
              {merge.isPending ? 'Merging...' : 'Merge'}
            </button>
          </div>
        </div>
      ) : (
        <div className="space-y-5">
          {duplicates.length > 1 ? (
            <RadioGroup
              legend="Which lead should be merged into this one?"
              value={other.id}
              onChange={(id) => {
                setOtherId(id);
                setKeep({});
              }}
              options={duplicates.map((d) => ({
                value: d.id,
                label: `${d.full_name} (${d.status})`,
                hint: `Added ${formatDate(d.created_at)}`,
              }))}
            />
          ) : (
            <p className="text-sm text-slate-700">
              {`${other.full_name}, added ${formatDate(other.created_at)}, has the same email (${other.email}).`}
            </p>
          )}
          {fields.length > 0 ? (
            <div className="space-y-4">
              <p className="text-sm text-slate-600">Choose the value to keep for each field.</p>
              {fields.map(({ field, label }) => (
                <RadioGroup
                  key={`${other.id}-${field}`}
                  legend={label}
                  columns
                  value={keep[field] ?? 'this'}
                  onChange={(side) => setKeep((k) => ({ ...k, [field]: side }))}
                  options={[
                    { value: 'this', label: mergeFieldText(field, lead), hint: 'This lead' },
                    { value: 'other', label: mergeFieldText(field, other), hint: 'The duplicate' },
                  ]}
                />
              ))}
            </div>
          ) : (
            <p className="text-sm text-slate-600">Both leads hold the same details.</p>
          )}
          <p className="text-sm text-slate-600">
            The duplicate’s message, timeline, notes, appointments and emails move to this lead, and the duplicate is deleted.
          </p>
          <div className="flex justify-end gap-3">
            <button type="button" onClick={close} className={secondary}>
              Cancel
            </button>
            <button type="button" onClick={() => setConfirming(true)} className={primary}>
              Merge
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}
