import { useRef, useState } from 'react';
import type { EmailTemplate } from '#shared/schemas/email-template';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useDeleteEmailTemplate, useEmailTemplates } from './api/manage-email-templates.ts';
import { RowButton } from './components/row-button.tsx';
import { TemplateForm } from './components/template-form.tsx';
import { SettingsNav } from './settings-nav.tsx';

/** Which template the editor shows: a new one, or one to change. */
type Editing = { template?: EmailTemplate } | undefined;

/**
 * /dashboard/settings/email-templates (owners): the templates everyone writing to a lead can
 * start from, with merge fields filled in for the lead.
 */
export function EmailTemplatesPage() {
  const templates = useEmailTemplates();
  const [editing, setEditing] = useState<Editing>();
  const [removing, setRemoving] = useState<EmailTemplate>();
  const newButton = useRef<HTMLButtonElement>(null);
  return (
    <section className="space-y-6">
      <SettingsNav />
      <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0 space-y-1">
            <h2 className="text-lg font-semibold text-slate-900">Email templates</h2>
            <p className="text-sm text-slate-600">
              Everyone writing to a lead can start from these. Merge fields such as{' '}
              <code className="rounded bg-slate-100 px-1">{'{{first_name}}'}</code> are filled in for the lead.
            </p>
          </div>
          <Button ref={newButton} onClick={() => setEditing({})}>
            New template
          </Button>
        </div>
      </div>
      {templates.data ? (
        <TemplateList templates={templates.data} onEdit={(template) => setEditing({ template })} onRemove={setRemoving} />
      ) : templates.isError ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">
          The templates could not be loaded.
        </p>
      ) : (
        <Spinner className="py-16" label="Loading templates..." />
      )}
      <Modal
        open={editing !== undefined}
        onOpenChange={(open) => !open && setEditing(undefined)}
        title={editing?.template ? 'Edit template' : 'New template'}
      >
        {editing ? <TemplateForm template={editing.template} onDone={() => setEditing(undefined)} /> : null}
      </Modal>
      <RemoveTemplate template={removing} onClose={() => setRemoving(undefined)} returnFocusTo={newButton} />
    </section>
  );
}

function TemplateList({
  templates,
  onEdit,
  onRemove,
}: {
  templates: EmailTemplate[];
  onEdit: (template: EmailTemplate) => void;
  onRemove: (template: EmailTemplate) => void;
}) {
  if (templates.length === 0) {
    return (
      <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">
        No templates yet. Add one for the messages your team writes most.
      </p>
    );
  }
  return (
    <ul aria-label="Email templates" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
      {templates.map((template) => (
        <li key={template.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
          <div className="min-w-0 flex-1">
            <p className="font-medium break-words text-slate-900">{template.name}</p>
            <p className="text-sm break-words text-slate-600">{template.subject}</p>
            <p className="text-xs text-slate-500">
              Changed <RelativeTime iso={template.updated_at} />
              {template.updated_by_name ? ` by ${template.updated_by_name}` : ''}
            </p>
          </div>
          <div className="flex shrink-0 gap-2">
            <RowButton label={`Edit ${template.name}`} onClick={() => onEdit(template)}>
              Edit
            </RowButton>
            <RowButton label={`Delete ${template.name}`} danger onClick={() => onRemove(template)}>
              Delete
            </RowButton>
          </div>
        </li>
      ))}
    </ul>
  );
}

function RemoveTemplate({
  template,
  onClose,
  returnFocusTo,
}: {
  template: EmailTemplate | undefined;
  onClose: () => void;
  returnFocusTo: React.RefObject<HTMLButtonElement | null>;
}) {
  const remove = useDeleteEmailTemplate();
  const confirm = () => {
    if (!template) return;
    remove.mutate(template.id, {
      onSuccess: () => {
        toast.success('Template deleted');
        onClose();
      },
      onError: (error) => {
        console.error('Deleting the template failed', error);
        toast.error(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to delete the template');
        onClose();
      },
    });
  };
  return (
    <ConfirmDialog
      open={template !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title="Delete this template?"
      description={`“${template?.name ?? ''}” will be removed for everyone. Messages already written from it keep their words.`}
      confirmLabel="Delete"
      busy={remove.isPending}
      onConfirm={confirm}
      returnFocusRef={returnFocusTo}
    />
  );
}
