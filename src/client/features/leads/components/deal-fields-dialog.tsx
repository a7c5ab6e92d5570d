import { LEAD_DEAL_LIMITS } from '#shared/constants';
import { useState, type FormEvent } from 'react';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import type { LeadDetail, UpdateLeadRequest } from '#shared/schemas/lead';
import { ApiError } from '#client/lib/api-client.ts';
import { centsToInput, parseDollars } from '#client/lib/money.ts';
import { usePatchLead } from '../api/patch-lead.ts';

type Props = { open: boolean; onOpenChange: (open: boolean) => void; lead: LeadDetail };
type Values = { property_address: string; target_closing_date: string; estimated_fee: string };
type Errors = Partial<Record<keyof Values, string>>;

const valuesOf = (lead: LeadDetail): Values => ({
  property_address: lead.property_address ?? '',
  target_closing_date: lead.target_closing_date ?? '',
  estimated_fee: centsToInput(lead.estimated_fee_cents),
});

/** The request's field names as this form's (the fee is typed in dollars, sent in cents). */
const FORM_FIELD: Record<string, keyof Values> = {
  property_address: 'property_address',
  target_closing_date: 'target_closing_date',
  estimated_fee_cents: 'estimated_fee',
};

/** Only what changed: a blank field clears its value (null), an unchanged one is not sent. */
export function buildDealPatch(initial: Values, values: Values): { patch: UpdateLeadRequest; errors: Errors } {
  const patch: UpdateLeadRequest = {};
  const errors: Errors = {};
  const address = values.property_address.trim();
  if (address !== initial.property_address) patch.property_address = address === '' ? null : address;
  if (values.target_closing_date !== initial.target_closing_date)
    patch.target_closing_date = values.target_closing_date === '' ? null : values.target_closing_date;
  const fee = parseDollars(values.estimated_fee);
  if (fee === undefined) errors.estimated_fee = 'Estimated fee must be an amount in dollars';
  else if (fee !== parseDollars(initial.estimated_fee)) patch.estimated_fee_cents = fee;
  return { patch, errors };
}

/** Edit the deal: property address, target closing date and estimated fee (in dollars). */
export function DealFieldsDialog({ open, onOpenChange, lead }: Props) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Edit deal">
      {open ? <DealForm lead={lead} onDone={() => onOpenChange(false)} /> : null}
    </Modal>
  );
}

function DealForm({ lead, onDone }: { lead: LeadDetail; onDone: () => void }) {
  const patchLead = usePatchLead(lead.id);
  const [initial] = useState(() => valuesOf(lead));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const set = (field: keyof Values) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { patch, errors: found } = buildDealPatch(initial, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (Object.keys(patch).length === 0) return onDone();
    try {
      await patchLead.mutateAsync(patch);
    } catch (error) {
      console.error('Updating the deal failed', error);
      if (error instanceof ApiError && error.fields) {
        const shown: Errors = {};
        for (const [key, message] of Object.entries(error.fields)) if (FORM_FIELD[key]) shown[FORM_FIELD[key]] ??= message;
        setErrors(shown);
      }
      toast.error('Failed to update lead');
      return;
    }
    toast.success('Lead updated successfully');
    onDone();
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Edit deal">
      <TextareaField
        label="Property address"
        rows={2}
        maxLength={LEAD_DEAL_LIMITS.propertyAddress}
        value={values.property_address}
        onChange={set('property_address')}
        error={errors.property_address}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Target closing date"
          type="date"
          value={values.target_closing_date}
          onChange={set('target_closing_date')}
          error={errors.target_closing_date}
        />
        <TextField
          label="Estimated fee (USD)"
          inputMode="decimal"
          placeholder="12,500"
          value={values.estimated_fee}
          onChange={set('estimated_fee')}
          error={errors.estimated_fee}
        />
      </div>
      <FormActions busy={patchLead.isPending} label="Save deal" busyLabel="Saving..." onCancel={onDone} />
    </form>
  );
}
