import type { ReactNode } from 'react';
import { CalendarPlus, Mail, Pencil, Phone, Trash2 } from '#client/components/icons.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { StatusBadge } from '#client/components/ui/status-badge.tsx';
import { SuspectedAbuseBadge } from './suspected-abuse-badge.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { LEAD_STATUSES, type LeadStatus } from '#shared/constants';
import type { CurrentUser } from '#shared/schemas/auth';
import type { LeadDetail } from '#shared/schemas/lead';
import type { PipelineStage } from '#shared/schemas/pipeline';
import { ApiError } from '#client/lib/api-client.ts';
import type { AdminSummary } from '#shared/schemas/lead-workspace';
import { formatDate } from '#client/lib/format.ts';
import { usePatchLead } from '../api/patch-lead.ts';

type Props = {
  lead: LeadDetail;
  me: CurrentUser | null;
  /** Undefined while they load (the current owner is still shown). */
  admins: AdminSummary[] | undefined;
  onSchedule: () => void;
  onEmail: () => void;
  onEdit: () => void;
  onDelete: () => void;
  /** More actions on this lead (Merge, Export everything, Erase), after the quick actions. */
  moreActions?: ReactNode;
  /** The pipeline's stages, in order (undefined while they load: the lead's own stage alone). */
  stages: PipelineStage[] | undefined;
  /** A Dropped stage was chosen: ask why the deal was lost. */
  onLose: (stageId: string) => void;
  onLogCall: () => void;
};

const action =
  'inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-600';
const control =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-blue-600 disabled:opacity-60';

/** A tel: link's number: digits and a leading plus only. */
const telOf = (phone: string) => phone.replace(/[^\d+]/g, '');

/** The lead's name, status and owner (each changed in place), when it came in, and the quick actions. */
export function LeadHeader({ lead, me, admins, onSchedule, onEmail, onEdit, onDelete, moreActions, stages, onLose, onLogCall }: Props) {
  const patch = usePatchLead(lead.id);
  const pending = patch.isPending ? patch.variables : undefined;
  // While a change is on its way, the menus show where it is going: a stage brings its status, a status its first stage.
  const pendingStage = pending?.stage_id ? stages?.find((s) => s.id === pending.stage_id) : undefined;
  const status = pendingStage?.status ?? pending?.status ?? lead.status;
  const stageShown =
    pending?.stage_id ?? (pending?.status ? stages?.find((s) => s.status === pending.status)?.id : undefined) ?? lead.stage_id;
  const ownerId = pending && 'owner_id' in pending ? (pending.owner_id ?? null) : lead.owner_id;

  const changeStatus = (next: LeadStatus) => {
    if (next === lead.status) return;
    patch.mutate(
      { status: next },
      {
        onSuccess: () => toast.success(`Status changed to ${next}.`),
        onError: (error) => {
          console.error('Changing the status failed', error);
          toast.error('Failed to update lead');
        },
      },
    );
  };

  const changeOwner = (next: string | null) => {
    if (next === lead.owner_id) return;
    const name = next === me?.id ? null : (admins?.find((a) => a.id === next)?.display_name ?? null);
    patch.mutate(
      { owner_id: next },
      {
        onSuccess: () => toast.success(next === null ? 'Lead unassigned.' : name ? `Lead assigned to ${name}.` : 'Lead assigned to you.'),
        onError: (error) => {
          console.error('Changing the owner failed', error);
          toast.error('Failed to update lead');
        },
      },
    );
  };

  const changeStage = (next: string) => {
    if (next === lead.stage_id) return;
    const stage = stages?.find((s) => s.id === next);
    if (!stage) return;
    // A deal lost says why: the dialog asks, then sends the stage and the reason together.
    if (stage.status === 'Dropped') return onLose(stage.id);
    patch.mutate(
      { stage_id: next },
      {
        onSuccess: () => toast.success(`Moved to ${stage.name}.`),
        onError: (error) => {
          console.error('Changing the stage failed', error);
          toast.error(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to update lead');
        },
      },
    );
  };

  // The admins to choose from; until they load (or if the owner's account is not among them), the current owner alone.
  const owners = admins ?? [];
  const ownerMissing = lead.owner_id !== null && !owners.some((a) => a.id === lead.owner_id);

  return (
    <header className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
        <div className="min-w-0">
          <h1 id="lead-heading" className="text-2xl font-bold break-words text-slate-900">
            {lead.full_name}
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-x-2 text-sm text-slate-600">
            <StatusBadge status={status} />
            {/* The stage, unless it is named as its status; a lost deal's reason with it ("Lost: Price"). */}
            {lead.lost_reason ? (
              <span className="font-medium text-slate-700">
                {lead.stage_name}: {lead.lost_reason}
              </span>
            ) : lead.stage_name !== lead.status ? (
              <span className="font-medium text-slate-700">{lead.stage_name}</span>
            ) : null}
            <SuspectedAbuseBadge at={lead.suspected_abuse_at} />
            <span>
              Added {formatDate(lead.created_at)} (<RelativeTime iso={lead.created_at} />)
            </span>
          </p>
        </div>
        <div className="grid w-full grid-cols-1 gap-3 sm:w-auto sm:grid-cols-[9rem_12rem_14rem] sm:items-end">
          <div>
            <label htmlFor="lead-status" className="mb-1 block text-sm font-medium text-slate-700">
              Status
            </label>
            <select
              id="lead-status"
              value={status}
              disabled={patch.isPending}
              onChange={(e) => changeStatus(e.target.value as LeadStatus)}
              className={control}
            >
              {LEAD_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="lead-stage" className="mb-1 block text-sm font-medium text-slate-700">
              Stage
            </label>
            <select
              id="lead-stage"
              value={stageShown}
              disabled={patch.isPending || !stages}
              onChange={(e) => changeStage(e.target.value)}
              className={control}
            >
              {stages ? (
                LEAD_STATUSES.map((s) => (
                  <optgroup key={s} label={s}>
                    {stages
                      .filter((stage) => stage.status === s)
                      .map((stage) => (
                        <option key={stage.id} value={stage.id}>
                          {stage.name}
                        </option>
                      ))}
                  </optgroup>
                ))
              ) : (
                <option value={lead.stage_id}>{lead.stage_name}</option>
              )}
            </select>
          </div>
          <div>
            <label htmlFor="lead-owner" className="mb-1 block text-sm font-medium text-slate-700">
              Owner
            </label>
            <select
              id="lead-owner"
              value={ownerId ?? ''}
              disabled={patch.isPending}
              onChange={(e) => changeOwner(e.target.value === '' ? null : e.target.value)}
              className={control}
            >
              <option value="">Nobody</option>
              {ownerMissing ? <option value={lead.owner_id!}>{lead.owner_name ?? 'A removed account'}</option> : null}
              {owners.map((admin) => (
                <option key={admin.id} value={admin.id}>
                  {admin.id === me?.id ? `${admin.display_name} (you)` : admin.display_name}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Actions">
        {me && ownerId !== me.id ? (
          <button
            type="button"
            onClick={() => changeOwner(me.id)}
            disabled={patch.isPending}
            className={`${action} border-blue-300 text-blue-800 disabled:opacity-60`}
          >
            Assign to me
          </button>
        ) : null}
        <button
          type="button"
          onClick={onEmail}
          disabled={lead.do_not_email}
          aria-describedby={lead.do_not_email ? 'lead-do-not-email' : undefined}
          className={`${action} disabled:cursor-not-allowed disabled:opacity-60`}
        >
          <Mail aria-hidden="true" className="size-4" />
          Send email
        </button>
        {lead.do_not_email ? (
          <span id="lead-do-not-email" className="self-center text-sm text-slate-600">
            Marked Do not email
          </span>
        ) : null}
        <a href={`tel:${telOf(lead.phone)}`} className={action}>
          <Phone aria-hidden="true" className="size-4" />
          Call
        </a>
        <button type="button" onClick={onLogCall} className={action}>
          <Phone aria-hidden="true" className="size-4" />
          Log call
        </button>
        <button type="button" onClick={onSchedule} className={action}>
          <CalendarPlus aria-hidden="true" className="size-4" />
          Schedule appointment
        </button>
        <button type="button" onClick={onEdit} className={action}>
          <Pencil aria-hidden="true" className="size-4" />
          Edit
        </button>
        <button type="button" onClick={onDelete} className={`${action} text-red-700 hover:bg-red-50`}>
          <Trash2 aria-hidden="true" className="size-4" />
          Delete
        </button>
        {/* ── More actions: Merge, Export everything and Erase plug in here (the `moreActions` prop). ── */}
        {moreActions}
      </div>
    </header>
  );
}
