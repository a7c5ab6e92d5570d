import { useState, type FormEvent } from 'react';
import { LEAD_EMAIL_BODY_MAX, LEAD_EMAIL_SUBJECT_MAX } from '#shared/constants';
import { EMAIL_PATTERN } from '#shared/rules/lead-fields';
import type { LeadDetail } from '#shared/schemas/lead';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useSendLeadEmail } from '../api/send-email.ts';

type Props = { open: boolean; onOpenChange: (open: boolean) => void; lead: LeadDetail };
type Values = { to: string; subject: string; body: string };
type Errors = Partial<Record<keyof Values, string>>;

/** The messages the server gives, checked here first so a person sees them without a round trip. */
export function checkEmail(values: Values): Errors {
  const errors: Errors = {};
  const to = values.to.trim();
  if (!to) errors.to = 'Email is required';
  else if (!EMAIL_PATTERN.test(to)) errors.to = 'Invalid email address';
  const subject = values.subject.trim();
  if (!subject) errors.subject = 'Subject is required';
  else if (subject.length > LEAD_EMAIL_SUBJECT_MAX) errors.subject = `Subject must be at most ${LEAD_EMAIL_SUBJECT_MAX} characters`;
  const body = values.body.trim();
  if (!body) errors.body = 'Message is required';
  else if (body.length > LEAD_EMAIL_BODY_MAX)
    errors.body = `Message must be at most ${LEAD_EMAIL_BODY_MAX.toLocaleString('en-US')} characters`;
  return errors;
}

/**
 * Write to the lead from their page: it goes out from the firm's address under your name, and
 * their reply comes back to the firm's reply address. To is the lead's address unless changed.
 */
export function SendEmailDialog({ open, onOpenChange, lead }: Props) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={`Email ${lead.full_name}`}>
      {open ? <EmailForm lead={lead} onDone={() => onOpenChange(false)} /> : null}
    </Modal>
  );
}

function EmailForm({ lead, onDone }: { lead: LeadDetail; onDone: () => void }) {
  const send = useSendLeadEmail();
  const [values, setValues] = useState<Values>({ to: lead.email, subject: '', body: '' });
  const [errors, setErrors] = useState<Errors>({});
  const set = (field: keyof Values) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkEmail(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const to = values.to.trim();
    try {
      const sent = await send.mutateAsync({
        leadId: lead.id,
        message: { subject: values.subject, body: values.body, ...(to.toLowerCase() === lead.email ? {} : { to }) },
      });
      // Email off: kept on the timeline as not sent, and the reason said now.
      if (sent.status === 'not_sent') toast.error(sent.error ?? 'The email was not sent');
      else toast.success(`Email to ${sent.to} is on its way`);
    } catch (error) {
      console.error('Sending the email failed', error);
      if (error instanceof ApiError && error.fields) {
        setErrors({ to: error.fields.to, subject: error.fields.subject, body: error.fields.body });
        return;
      }
      toast.error(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to send the email');
      return;
    }
    onDone();
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-label="Send email">
      <TextField label="To" type="email" autoComplete="off" value={values.to} onChange={set('to')} error={errors.to} />
      <TextField
        label="Subject"
        maxLength={LEAD_EMAIL_SUBJECT_MAX}
        value={values.subject}
        onChange={set('subject')}
        error={errors.subject}
      />
      <TextareaField label="Message" rows={10} value={values.body} onChange={set('body')} error={errors.body} />
      <p className="text-xs text-slate-600">
        Sent from the firm’s address under your name, with your signature (your account page); replies come back to the firm.
      </p>
      <FormActions busy={send.isPending} label="Send" busyLabel="Sending..." onCancel={onDone} />
    </form>
  );
}
