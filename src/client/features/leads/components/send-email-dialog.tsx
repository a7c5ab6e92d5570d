import { useState, type FormEvent } from 'react';
import { LEAD_EMAIL_SUBJECT_MAX } from '#shared/constants';
import { checkMessageText } from '#shared/rules/message';
import { EMAIL_PATTERN } from '#shared/rules/lead-fields';
import type { LeadDetail } from '#shared/schemas/lead';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useFillTemplate, useTemplateChoices } from '../api/fill-email-template.ts';
import { useSendLeadEmail } from '../api/send-email.ts';

/** A message of theirs this answers: written to its sender, "Re: " its subject, in its thread. */
export type ReplyTo = { id: string; from: string; subject: string };

type Props = { open: boolean; onOpenChange: (open: boolean) => void; lead: LeadDetail; reply?: ReplyTo | undefined };

const reSubject = (subject: string) => (/^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`.trim()).slice(0, 200);
type Values = { to: string; subject: string; body: string };
type Errors = Partial<Record<keyof Values, string>>;

/** The messages the server gives, checked here first so a person sees them without a round trip. */
export function checkEmail(values: Values): Errors {
  const errors: Errors = { ...checkMessageText(values) };
  const to = values.to.trim();
  if (!to) errors.to = 'Email is required';
  else if (!EMAIL_PATTERN.test(to)) errors.to = 'Invalid email address';
  return errors;
}

/**
 * Write to the lead from their page: it goes out from the firm's address under your name, and
 * their reply comes back to the firm's reply address. To is the lead's address unless changed.
 */
export function SendEmailDialog({ open, onOpenChange, lead, reply }: Props) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={reply ? `Reply to ${lead.full_name}` : `Email ${lead.full_name}`}>
      {open ? <EmailForm lead={lead} reply={reply} onDone={() => onOpenChange(false)} /> : null}
    </Modal>
  );
}

function EmailForm({ lead, reply, onDone }: { lead: LeadDetail; reply: ReplyTo | undefined; onDone: () => void }) {
  const send = useSendLeadEmail();
  const templates = useTemplateChoices();
  const fill = useFillTemplate();
  const [values, setValues] = useState<Values>({ to: reply?.from ?? lead.email, subject: reply ? reSubject(reply.subject) : '', body: '' });
  const [templateId, setTemplateId] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  // A template replaces the subject and message with its own, filled in for this lead.
  const choose = (id: string) => {
    setTemplateId(id);
    const template = templates.data?.find((t) => t.id === id);
    if (!template) return;
    fill.mutate(
      { lead_id: lead.id, subject: template.subject, body: template.body },
      {
        onSuccess: (filled) => {
          setValues((v) => ({ ...v, subject: filled.subject, body: filled.body }));
          setErrors({});
        },
        onError: (error) => {
          console.error('Filling in the template failed', error);
          toast.error('Failed to load the template');
        },
      },
    );
  };
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
        message: {
          subject: values.subject,
          body: values.body,
          ...(to.toLowerCase() === lead.email ? {} : { to }),
          ...(templateId ? { template_id: templateId } : {}),
          ...(reply ? { in_reply_to: reply.id } : {}),
        },
      });
      // Email off: kept on the timeline as not sent, and the reason said now.
      if (sent.status === 'not_sent') toast.error(sent.error ?? 'The email was not sent');
      else toast.success(`Email to ${sent.to} is on its way`);
    } catch (error) {
      console.error('Sending the email failed', error);
      // A field of the form is wrong: said under it. Anything else (the message answered is gone): a toast.
      if (error instanceof ApiError && error.fields && ['to', 'subject', 'body'].some((f) => error.fields?.[f])) {
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
      {templates.data && templates.data.length > 0 ? (
        <SelectField label="Template" value={templateId} onChange={(event) => choose(event.target.value)} disabled={fill.isPending}>
          <option value="">None</option>
          {templates.data.map((template) => (
            <option key={template.id} value={template.id}>
              {template.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      <TextField
        label="Subject"
        maxLength={LEAD_EMAIL_SUBJECT_MAX}
        value={values.subject}
        onChange={set('subject')}
        error={errors.subject}
      />
      <TextareaField label="Message" rows={10} value={values.body} onChange={set('body')} error={errors.body} />
      {/\{\{\s*booking_link\s*\}\}/.test(values.subject + values.body) ? (
        <p className="text-xs text-slate-600">
          {'{{booking_link}}'} becomes a booking link for {lead.full_name}, good for 7 days, when you send.
        </p>
      ) : null}
      <p className="text-xs text-slate-600">
        Sent from the firm’s address under your name, with your signature (your account page); replies come back to the firm.
      </p>
      <FormActions busy={send.isPending} label="Send" busyLabel="Sending..." onCancel={onDone} />
    </form>
  );
}
