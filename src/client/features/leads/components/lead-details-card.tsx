import { Button } from '#client/components/ui/button.tsx';
import { useState } from 'react';
import { Pencil } from '#client/components/icons.tsx';
import { lazyDialog } from '#client/components/ui/lazy-dialog.tsx';
import { propertyTypesLabel } from '#shared/property-type-label';
import type { LeadDetail } from '#shared/schemas/lead';
import { formatDate } from '#client/lib/format.ts';
import { formatCents } from '#client/lib/money.ts';
import { toast } from '#client/components/ui/toast-store.ts';
import { useNotAStopRequest } from '../api/replies.ts';
import { usePatchLead } from '../api/patch-lead.ts';
import { LeadSourceDetails } from './lead-source.tsx';

const DealFieldsDialog = lazyDialog(
  () => import('./deal-fields-dialog.tsx').then((m) => m.DealFieldsDialog),
  (p) => p.open,
);

const NOT_SET = <span className="text-slate-500">Not set</span>;

/** Who the lead is and what the deal is; the deal's fields are edited in a small dialog. */
export function LeadDetailsCard({ lead }: { lead: LeadDetail }) {
  const [editing, setEditing] = useState(false);
  return (
    <section aria-labelledby="lead-details-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex items-center justify-between gap-3">
        <h2 id="lead-details-heading" className="text-lg font-semibold text-slate-900">
          Details
        </h2>
        <button
          type="button"
          onClick={() => setEditing(true)}
          className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-blue-700 hover:bg-blue-50"
        >
          <Pencil aria-hidden="true" className="size-4" />
          Edit deal
        </button>
      </div>
      <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[9rem_1fr]">
        <dt className="text-slate-500">Email</dt>
        <dd className="break-all">
          <a href={`mailto:${lead.email}`} className="text-blue-700 hover:underline">
            {lead.email}
          </a>
          <DoNotEmail lead={lead} />
        </dd>
        <dt className="text-slate-500">Phone</dt>
        <dd>
          <a href={`tel:${lead.phone.replace(/[^\d+]/g, '')}`} className="text-blue-700 hover:underline">
            {lead.phone}
          </a>
        </dd>
        <dt className="text-slate-500">Property type</dt>
        <dd className="text-slate-900">{propertyTypesLabel(lead.property_types) || '—'}</dd>
        <dt className="text-slate-500">Property address</dt>
        <dd className="break-words whitespace-pre-line text-slate-900">{lead.property_address ?? NOT_SET}</dd>
        <dt className="text-slate-500">Target closing</dt>
        <dd className="text-slate-900">{lead.target_closing_date ? formatDate(lead.target_closing_date) : NOT_SET}</dd>
        <dt className="text-slate-500">Estimated fee</dt>
        <dd className="text-slate-900">{lead.estimated_fee_cents !== null ? formatCents(lead.estimated_fee_cents) : NOT_SET}</dd>
      </dl>
      <LeadSourceDetails lead={lead} />
      <DealFieldsDialog open={editing} onOpenChange={setEditing} lead={lead} />
    </section>
  );
}

/**
 * They asked not to be written to: the lead page then cannot send them a message. Saved when
 * ticked; the box shows the new state at once, and goes back if saving fails.
 */
function DoNotEmail({ lead }: { lead: LeadDetail }) {
  const patch = usePatchLead(lead.id);
  const [saving, setSaving] = useState<boolean | null>(null);
  const change = (doNotEmail: boolean) => {
    setSaving(doNotEmail);
    patch.mutate(
      { do_not_email: doNotEmail },
      {
        onSuccess: () => toast.success(doNotEmail ? 'Marked Do not email' : 'Do not email cleared'),
        onError: (error) => {
          console.error('Changing Do not email failed', error);
          toast.error('Failed to update lead');
        },
        onSettled: () => setSaving(null),
      },
    );
  };
  return (
    <>
      <label className="mt-1 flex w-fit items-center gap-2 break-normal text-slate-700">
        <input
          type="checkbox"
          checked={saving ?? lead.do_not_email}
          disabled={patch.isPending}
          onChange={(event) => change(event.currentTarget.checked)}
          className="size-4 accent-blue-700"
        />
        Do not email
      </label>
      {lead.stop_request && !lead.do_not_email ? <StopRequest lead={lead} request={lead.stop_request} onMark={() => change(true)} /> : null}
    </>
  );
}

/** A reply of theirs seems to ask us to stop writing: staff confirm (Do not email) or say it does not. */
function StopRequest({
  lead,
  request,
  onMark,
}: {
  lead: LeadDetail;
  request: NonNullable<LeadDetail['stop_request']>;
  onMark: () => void;
}) {
  const notAStop = useNotAStopRequest();
  const dismiss = () =>
    notAStop.mutate(
      { leadId: lead.id, replyId: request.id },
      {
        onError: (error) => {
          console.error('Dismissing the request failed', error);
          toast.error('Failed to update lead');
        },
      },
    );
  return (
    <div
      role="note"
      aria-label="Asked not to be emailed"
      className="mt-2 space-y-2 rounded-md bg-amber-50 p-3 text-sm break-normal text-amber-900"
    >
      <p>
        {lead.full_name}’s reply “{request.subject || '(no subject)'}” seems to ask us to stop writing.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={onMark}>
          Mark Do not email
        </Button>
        <Button size="sm" variant="secondary" onClick={dismiss} disabled={notAStop.isPending}>
          Not a request
        </Button>
      </div>
    </div>
  );
}
