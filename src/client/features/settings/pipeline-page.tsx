import { useState, type FormEvent } from 'react';
import { DEFAULT_STAGE_PROBABILITY, LEAD_STATUSES, OPEN_STATUSES, type LeadStatus } from '#shared/constants';
import type { LostReason, PipelineStage } from '#shared/schemas/pipeline';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { usePipeline } from '#client/features/pipeline/api/get-pipeline.ts';
import { wholeNumberIn } from '#client/lib/whole-number.ts';
import {
  useCreateLostReason,
  useCreateStage,
  useDeleteLostReason,
  useDeleteStage,
  useRenameLostReason,
  useUpdateStage,
} from './api/manage-pipeline.ts';
import { RowButton } from './components/row-button.tsx';
import { SettingsNav } from './settings-nav.tsx';

const OPEN: readonly LeadStatus[] = OPEN_STATUSES;
const STATUS_HINT: Record<LeadStatus, string> = {
  New: 'Leads nobody has worked yet.',
  Contacted: 'Deals in progress.',
  Converted: 'Won: the firm has the client.',
  Dropped: 'Lost: choosing one of these asks why.',
};

/** What the server said, or `fallback` for a failure of ours. */
const failure = (error: unknown, fallback: string) => {
  console.error(fallback, error);
  toast.error(error instanceof ApiError && error.status < 500 ? error.message : fallback);
};

/** Field errors the server sent, by field. */
const fieldsOf = (error: unknown): Record<string, string> => (error instanceof ApiError && error.fields ? error.fields : {});

/**
 * /dashboard/settings/pipeline (owners): the stages the firm names, each in one of the four
 * statuses so every list, badge and report keeps working; their win probabilities; and the
 * reasons deals are lost.
 */
export function PipelinePage() {
  const pipeline = usePipeline();
  return (
    <section className="space-y-6">
      <SettingsNav />
      <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="text-lg font-semibold text-slate-900">Pipeline</h2>
        <p className="mt-1 text-sm text-slate-600">
          Name the stages a deal goes through. Each belongs to a status, so lists, filters and reports keep working; setting a lead’s status
          puts it in that status’s first stage. Open stages carry the chance of winning a deal in them.
        </p>
      </div>
      {pipeline.data ? (
        <>
          <StageGroups stages={pipeline.data.stages} />
          <AddStage />
          <LostReasons reasons={pipeline.data.lost_reasons} />
        </>
      ) : pipeline.isError ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">
          The pipeline could not be loaded. Please reload the page.
        </p>
      ) : (
        <Spinner className="py-16" label="Loading the pipeline..." />
      )}
    </section>
  );
}

function StageGroups({ stages }: { stages: PipelineStage[] }) {
  const update = useUpdateStage();
  const [editing, setEditing] = useState<PipelineStage>();
  const [removing, setRemoving] = useState<PipelineStage>();
  const move = (stage: PipelineStage, position: number) =>
    !update.isPending &&
    update.mutate(
      { id: stage.id, change: { position } },
      { onSuccess: () => toast.success(`${stage.name} moved`), onError: (error) => failure(error, 'Failed to move the stage') },
    );
  return (
    <div className="space-y-4">
      {LEAD_STATUSES.map((status) => {
        const group = stages.filter((s) => s.status === status);
        return (
          <section
            key={status}
            aria-labelledby={`stages-${status}`}
            className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
          >
            <h3 id={`stages-${status}`} className="font-semibold text-slate-900">
              {status}
            </h3>
            <p className="text-sm text-slate-600">{STATUS_HINT[status]}</p>
            <ol aria-label={`${status} stages`} className="mt-3 divide-y divide-slate-200">
              {group.map((stage, i) => (
                <li key={stage.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  {/* At least 10rem for the name: on a phone the buttons go to the next line, not the name to letters. */}
                  <div className="min-w-40 flex-1">
                    <p className="font-medium break-words text-slate-900">{stage.name}</p>
                    <p className="text-xs text-slate-500">
                      {stage.leads === 1 ? '1 lead' : `${stage.leads.toLocaleString('en-US')} leads`}
                      {stage.probability !== null ? ` · ${stage.probability}% chance to win` : ''}
                    </p>
                  </div>
                  <div className="flex shrink-0 flex-wrap gap-2">
                    {i > 0 ? (
                      <RowButton label={`Move ${stage.name} up`} onClick={() => move(stage, stage.position - 1)}>
                        Up
                      </RowButton>
                    ) : null}
                    {i < group.length - 1 ? (
                      <RowButton label={`Move ${stage.name} down`} onClick={() => move(stage, stage.position + 1)}>
                        Down
                      </RowButton>
                    ) : null}
                    <RowButton label={`Edit ${stage.name}`} onClick={() => setEditing(stage)}>
                      Edit
                    </RowButton>
                    {group.length > 1 ? (
                      <RowButton label={`Remove ${stage.name}`} danger onClick={() => setRemoving(stage)}>
                        Remove
                      </RowButton>
                    ) : null}
                  </div>
                </li>
              ))}
            </ol>
          </section>
        );
      })}
      <Modal open={editing !== undefined} onOpenChange={(open) => !open && setEditing(undefined)} title="Edit stage">
        {editing ? <EditStageForm stage={editing} onDone={() => setEditing(undefined)} /> : null}
      </Modal>
      <Modal
        open={removing !== undefined}
        onOpenChange={(open) => !open && setRemoving(undefined)}
        title={`Remove ${removing?.name ?? 'stage'}?`}
        description="Its leads move to another stage of the same status."
      >
        {removing ? (
          <RemoveStageForm
            stage={removing}
            others={stages.filter((s) => s.status === removing.status && s.id !== removing.id)}
            onDone={() => setRemoving(undefined)}
          />
        ) : null}
      </Modal>
    </div>
  );
}

const PROBABILITY_RULE = 'Probability must be a whole number from 0 to 100';

/** An open stage's chance to win, as typed (checked on submit). */
function ChanceField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error: string | undefined }) {
  return <TextField label="Chance to win (%)" inputMode="numeric" value={value} onChange={(e) => onChange(e.target.value)} error={error} />;
}

function EditStageForm({ stage, onDone }: { stage: PipelineStage; onDone: () => void }) {
  const update = useUpdateStage();
  const [name, setName] = useState(stage.name);
  const [probability, setProbability] = useState(stage.probability === null ? '' : String(stage.probability));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const open = OPEN.includes(stage.status);
    const chance = wholeNumberIn(probability, 100);
    if (!name.trim()) return setErrors({ name: 'Stage name is required' });
    if (open && chance === 'invalid') return setErrors({ probability: PROBABILITY_RULE });
    update.mutate(
      { id: stage.id, change: { name, ...(open && chance !== 'invalid' ? { probability: chance ?? null } : {}) } },
      {
        onSuccess: () => {
          toast.success('Stage saved');
          onDone();
        },
        onError: (error) =>
          Object.keys(fieldsOf(error)).length > 0 ? setErrors(fieldsOf(error)) : failure(error, 'Failed to save the stage'),
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="Edit stage">
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} maxLength={60} required />
      {OPEN.includes(stage.status) ? <ChanceField value={probability} onChange={setProbability} error={errors.probability} /> : null}
      <FormActions busy={update.isPending} label="Save" busyLabel="Saving..." onCancel={onDone} />
    </form>
  );
}

function RemoveStageForm({ stage, others, onDone }: { stage: PipelineStage; others: PipelineStage[]; onDone: () => void }) {
  const remove = useDeleteStage();
  const [moveTo, setMoveTo] = useState(others[0]?.id ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(
      { id: stage.id, moveTo },
      {
        onSuccess: ({ moved }) => {
          toast.success(moved === 0 ? 'Stage removed' : `Stage removed; ${moved === 1 ? '1 lead' : `${moved} leads`} moved`);
          onDone();
        },
        onError: (error) => failure(error, 'Failed to remove the stage'),
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label={`Remove ${stage.name}`}>
      <p className="text-sm text-slate-700">
        {stage.leads === 0
          ? `No lead is in ${stage.name}.`
          : `${stage.leads === 1 ? '1 lead is' : `${stage.leads} leads are`} in ${stage.name}: choose where ${stage.leads === 1 ? 'it goes' : 'they go'}.`}
      </p>
      <SelectField label="Move its leads to" value={moveTo} onChange={(e) => setMoveTo(e.target.value)}>
        {others.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </SelectField>
      <div className="flex justify-end gap-3 pt-2">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" disabled={remove.isPending}>
          {remove.isPending ? 'Removing...' : 'Remove stage'}
        </Button>
      </div>
    </form>
  );
}

function AddStage() {
  const create = useCreateStage();
  const [name, setName] = useState('');
  const [status, setStatus] = useState<LeadStatus>('Contacted');
  const [probability, setProbability] = useState(String(DEFAULT_STAGE_PROBABILITY));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const open = OPEN.includes(status);
    const chance = wholeNumberIn(probability, 100);
    if (!name.trim()) return setErrors({ name: 'Stage name is required' });
    if (open && chance === 'invalid') return setErrors({ probability: PROBABILITY_RULE });
    create.mutate(
      { name, status, ...(open && chance !== 'invalid' ? { probability: chance ?? null } : {}) },
      {
        onSuccess: (stage) => {
          toast.success(`Stage “${stage.name}” added`);
          setName('');
          setErrors({});
        },
        onError: (error) =>
          Object.keys(fieldsOf(error)).length > 0 ? setErrors(fieldsOf(error)) : failure(error, 'Failed to add the stage'),
      },
    );
  };
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby="add-stage-heading"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h3 id="add-stage-heading" className="font-semibold text-slate-900">
        Add a stage
      </h3>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField label="Stage name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} maxLength={60} />
        <SelectField label="Status" value={status} onChange={(e) => setStatus(e.target.value as LeadStatus)} error={errors.status}>
          {LEAD_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
        {OPEN.includes(status) ? <ChanceField value={probability} onChange={setProbability} error={errors.probability} /> : null}
      </div>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Adding...' : 'Add stage'}
      </Button>
    </form>
  );
}

function LostReasons({ reasons }: { reasons: LostReason[] }) {
  const create = useCreateLostReason();
  const rename = useRenameLostReason();
  const remove = useDeleteLostReason();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [editing, setEditing] = useState<LostReason>();
  const [removing, setRemoving] = useState<LostReason>();
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('Reason is required');
    create.mutate(name, {
      onSuccess: (reason) => {
        toast.success(`“${reason.name}” added`);
        setName('');
        setError(undefined);
      },
      onError: (e) => (fieldsOf(e).name ? setError(fieldsOf(e).name) : failure(e, 'Failed to add the reason')),
    });
  };
  return (
    <section aria-labelledby="lost-reasons-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div>
        <h3 id="lost-reasons-heading" className="font-semibold text-slate-900">
          Lost reasons
        </h3>
        <p className="text-sm text-slate-600">Choosing a Dropped stage for a lead asks for one of these. Leads already lost keep theirs.</p>
      </div>
      {reasons.length === 0 ? (
        <p className="text-sm text-slate-600">No reasons yet: add the ones your team hears most.</p>
      ) : (
        <ul aria-label="Lost reasons" className="divide-y divide-slate-200">
          {reasons.map((reason) => (
            <li key={reason.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
              <span className="min-w-40 flex-1 break-words text-slate-900">{reason.name}</span>
              <div className="flex shrink-0 gap-2">
                <RowButton label={`Rename ${reason.name}`} onClick={() => setEditing(reason)}>
                  Rename
                </RowButton>
                <RowButton label={`Remove ${reason.name}`} danger onClick={() => setRemoving(reason)}>
                  Remove
                </RowButton>
              </div>
            </li>
          ))}
        </ul>
      )}
      <form noValidate onSubmit={add} aria-label="Add a lost reason" className="flex flex-wrap items-end gap-3">
        <TextField
          label="New reason"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={error}
          maxLength={80}
          className="min-w-0 flex-1"
        />
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Adding...' : 'Add reason'}
        </Button>
      </form>
      <ConfirmDialog
        open={removing !== undefined}
        onOpenChange={(open) => !open && setRemoving(undefined)}
        title="Remove this lost reason?"
        description={`“${removing?.name ?? ''}” will no longer be offered. Leads already lost for it keep it.`}
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => toast.success(`“${removing.name}” removed`),
            onError: (e) => failure(e, 'Failed to remove the reason'),
            onSettled: () => setRemoving(undefined),
          })
        }
      />
      <Modal open={editing !== undefined} onOpenChange={(open) => !open && setEditing(undefined)} title="Rename lost reason">
        {editing ? (
          <RenameReason
            reason={editing}
            busy={rename.isPending}
            onSave={(next, setFieldError) =>
              rename.mutate(
                { id: editing.id, name: next },
                {
                  onSuccess: () => {
                    toast.success('Reason saved');
                    setEditing(undefined);
                  },
                  onError: (e) => (fieldsOf(e).name ? setFieldError(fieldsOf(e).name!) : failure(e, 'Failed to save the reason')),
                },
              )
            }
            onCancel={() => setEditing(undefined)}
          />
        ) : null}
      </Modal>
    </section>
  );
}

function RenameReason({
  reason,
  busy,
  onSave,
  onCancel,
}: {
  reason: LostReason;
  busy: boolean;
  onSave: (name: string, setError: (error: string) => void) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(reason.name);
  const [error, setError] = useState<string>();
  return (
    <form
      noValidate
      aria-label="Rename lost reason"
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return setError('Reason is required');
        onSave(name, setError);
      }}
    >
      <TextField label="Reason" value={name} onChange={(e) => setName(e.target.value)} error={error} maxLength={80} />
      <FormActions busy={busy} label="Save" busyLabel="Saving..." onCancel={onCancel} />
    </form>
  );
}
