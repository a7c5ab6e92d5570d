import { useRef, useState, type FormEvent } from 'react';
import { EMAIL_TEMPLATE_NAME_MAX, LEAD_EMAIL_SUBJECT_MAX } from '#shared/constants';
import { MERGE_FIELDS, MERGE_FIELD_HELP, type MergeField } from '#shared/rules/merge-fields';
import { checkMessageText, checkTemplateName } from '#shared/rules/message';
import type { EmailTemplate, TemplatePreview } from '#shared/schemas/email-template';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { TextareaField } from '#client/components/ui/textarea-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { usePreviewLeads, usePreviewTemplate, useSaveEmailTemplate } from '../api/manage-email-templates.ts';

type Values = { name: string; subject: string; body: string };
type Errors = Partial<Record<keyof Values, string>>;

const FIELD_LABEL: Record<MergeField, string> = {
  first_name: 'first name',
  full_name: 'full name',
  property_address: 'property address',
  booking_link: 'booking link',
  my_name: 'my name',
  my_phone: 'my phone',
};

/** Writes a template: name, subject and text, merge fields put in where the cursor is, and a preview with a real lead. */
export function TemplateForm({ template, onDone }: { template: EmailTemplate | undefined; onDone: () => void }) {
  const save = useSaveEmailTemplate();
  const [values, setValues] = useState<Values>({
    name: template?.name ?? '',
    subject: template?.subject ?? '',
    body: template?.body ?? '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const subjectRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  // The field a merge field goes into: the last of subject and text that had focus (the text at first).
  const target = useRef<'subject' | 'body'>('body');
  const set = (field: keyof Values) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: event.target.value }));

  const insert = (field: MergeField) => {
    const which = target.current;
    const element = which === 'subject' ? subjectRef.current : bodyRef.current;
    const text = `{{${field}}}`;
    const current = values[which];
    const start = element?.selectionStart ?? current.length;
    const end = element?.selectionEnd ?? current.length;
    setValues((v) => ({ ...v, [which]: current.slice(0, start) + text + current.slice(end) }));
    // Back to the field, the cursor after what was put in.
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + text.length, start + text.length);
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const name = checkTemplateName(values.name);
    const found: Errors = { ...(name ? { name } : {}), ...checkMessageText(values) };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await save.mutateAsync({ ...(template ? { id: template.id } : {}), template: values });
    } catch (error) {
      console.error('Saving the template failed', error);
      if (error instanceof ApiError && (error.fields || error.status === 409)) {
        setErrors({
          name: error.fields?.name ?? (error.status === 409 ? error.message : undefined),
          subject: error.fields?.subject,
          body: error.fields?.body,
        });
        if (!error.fields) toast.error(error.message);
        return;
      }
      toast.error(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to save the template');
      return;
    }
    toast.success(template ? 'Template saved' : 'Template added');
    onDone();
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="space-y-4"
      aria-label={template ? 'Edit template' : 'New template'}
    >
      <TextField label="Name" maxLength={EMAIL_TEMPLATE_NAME_MAX} value={values.name} onChange={set('name')} error={errors.name} />
      <TextField
        ref={subjectRef}
        label="Subject"
        maxLength={LEAD_EMAIL_SUBJECT_MAX}
        value={values.subject}
        onChange={set('subject')}
        onFocus={() => {
          target.current = 'subject';
        }}
        error={errors.subject}
      />
      <TextareaField
        ref={bodyRef}
        label="Message"
        rows={10}
        value={values.body}
        onChange={set('body')}
        onFocus={() => {
          target.current = 'body';
        }}
        error={errors.body}
      />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Merge fields</legend>
        <p className="text-xs text-slate-600">Put one in where the cursor is, in the subject or the message.</p>
        <div className="flex flex-wrap gap-2">
          {MERGE_FIELDS.map((field) => (
            <button
              key={field}
              type="button"
              title={MERGE_FIELD_HELP[field]}
              aria-label={`Insert ${FIELD_LABEL[field]}: ${MERGE_FIELD_HELP[field]}`}
              // Keep the cursor where it was in the subject or message.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => insert(field)}
              className="rounded-md border border-slate-300 bg-slate-50 px-2 py-1 font-mono text-xs text-slate-800 hover:bg-slate-100"
            >
              {`{{${field}}}`}
            </button>
          ))}
        </div>
      </fieldset>
      <PreviewPanel subject={values.subject} body={values.body} />
      <FormActions busy={save.isPending} label="Save template" busyLabel="Saving..." onCancel={onDone} />
    </form>
  );
}

/** The subject and text as a real lead would get them. */
function PreviewPanel({ subject, body }: { subject: string; body: string }) {
  const leads = usePreviewLeads();
  const preview = usePreviewTemplate();
  const [leadId, setLeadId] = useState('');
  const [shown, setShown] = useState<TemplatePreview & { name: string }>();
  const chosen = leadId || leads.data?.[0]?.id || '';

  if (leads.data?.length === 0) return <p className="text-sm text-slate-600">Add a lead to preview this template with real details.</p>;

  const show = () => {
    const problems = checkMessageText({ subject, body });
    if (problems.subject || problems.body) {
      toast.error(problems.subject ?? problems.body ?? 'The template cannot be previewed yet');
      return;
    }
    preview.mutate(
      { lead_id: chosen, subject, body },
      {
        onSuccess: (filled) => setShown({ ...filled, name: leads.data?.find((l) => l.id === chosen)?.full_name ?? '' }),
        onError: (error) => toast.error(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to preview the template'),
      },
    );
  };

  return (
    <div className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-3">
      <div className="flex flex-wrap items-end gap-3">
        <SelectField label="Preview with" value={chosen} onChange={(event) => setLeadId(event.target.value)} className="min-w-0 flex-1">
          {(leads.data ?? []).map((lead) => (
            <option key={lead.id} value={lead.id}>
              {lead.full_name}
            </option>
          ))}
        </SelectField>
        <button
          type="button"
          onClick={show}
          disabled={!chosen || preview.isPending}
          className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-60"
        >
          {preview.isPending ? 'Loading...' : 'Preview'}
        </button>
      </div>
      {shown ? (
        <div aria-live="polite" className="space-y-2">
          <p className="text-sm text-slate-900">
            <span className="font-medium">Subject:</span> {shown.subject}
          </p>
          <p className="rounded border border-slate-200 bg-white p-2 text-sm break-words whitespace-pre-wrap text-slate-800">
            {shown.body}
          </p>
          {shown.empty.length > 0 ? (
            <p className="text-xs text-amber-800">
              {shown.name} has no {shown.empty.map((f) => FIELD_LABEL[f]).join(' or ')} yet: it comes out empty.
            </p>
          ) : null}
          {shown.body.includes('{{booking_link}}') || shown.subject.includes('{{booking_link}}') ? (
            <p className="text-xs text-slate-600">
              {'{{booking_link}}'} becomes a booking link for the lead, good for 7 days, when the message is sent.
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
