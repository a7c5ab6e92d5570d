import { useQueryClient } from '@tanstack/react-query';
import { useState, type ComponentType, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft } from '#client/components/icons.tsx';
import { lazyDialog } from '#client/components/ui/lazy-dialog.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import type { LeadDetail } from '#shared/schemas/lead';
import type { AdminSummary } from '#shared/schemas/lead-workspace';
import { ApiError } from '#client/lib/api-client.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { useAdmins } from '#client/lib/api/admins.ts';
import { leadQueryOptions, useLead } from './api/get-lead.ts';
import { CustomerMessage } from './components/customer-message.tsx';
import { DeleteLeadDialog } from './components/delete-lead-dialog.tsx';
import { LeadPrivacyActions } from './components/lead-privacy-actions.tsx';
import { MergeLeadsButton } from './components/merge-leads-button.tsx';
import { LeadDetailsCard } from './components/lead-details-card.tsx';
import { LeadHeader } from './components/lead-header.tsx';
import { LoseDealDialog } from './components/lead-lost-dialog.tsx';
import { LogCallDialog } from './components/log-call-dialog.tsx';
import { usePipeline } from '#client/features/pipeline/api/get-pipeline.ts';
import { SendEmailDialog, type ReplyTo } from './components/send-email-dialog.tsx';
import { LeadTimeline } from './components/lead-timeline.tsx';
import { NextStepCard } from './components/next-step-card.tsx';
import { TasksCard } from './components/tasks-card.tsx';
import { NoteComposer } from './components/note-composer.tsx';

const EditLeadDialog = lazyDialog(
  () => import('./components/edit-lead-dialog.tsx').then((m) => m.EditLeadDialog),
  (p) => p.leadId !== null,
);

/** The Schedule Appointment dialog, prefilled with this lead (the appointments feature's, handed in by the app's routes). */
export type ScheduleDialogForLead = ComponentType<{
  open: boolean;
  onOpenChange: (open: boolean) => void;
  lead: { id: string; full_name: string; email: string };
}>;

type Props = {
  scheduleDialog?: ScheduleDialogForLead;
  /** Buttons after the quick actions (Merge, Export everything, Erase), given the lead shown. */
  moreActions?: (lead: LeadDetail) => ReactNode;
};

/** An id that names no lead: unknown, deleted, or not an id at all (the server's 404 or 400). */
const isMissing = (error: Error) => error instanceof ApiError && (error.status === 404 || error.status === 400);

/**
 * /dashboard/leads/:id: one lead's workspace. Header (status and owner changed in place, quick
 * actions), details, the customer's message, the next step, notes and the timeline. Every
 * query is under ['leads'], so another admin's change (the SSE `change` event) refreshes it.
 */
export function LeadPage({ scheduleDialog: ScheduleDialog, moreActions }: Props) {
  const id = useParams().id ?? '';
  const lead = useLead(id);
  const { user } = useAuth();
  const admins = useAdmins();

  if (lead.isPending) return <Spinner className="py-16" label="Loading lead..." />;
  if (lead.isError) {
    return (
      <section aria-labelledby="lead-heading" className="space-y-4 py-10 text-center">
        <h1 id="lead-heading" className="text-2xl font-bold text-slate-900">
          {isMissing(lead.error) ? 'Lead not found.' : 'This lead could not be loaded.'}
        </h1>
        <p className="text-slate-600">
          {isMissing(lead.error) ? 'It may have been deleted or merged into another lead.' : 'Please check your connection and try again.'}
        </p>
        <BackToLeads />
      </section>
    );
  }
  return (
    <LeadWorkspace lead={lead.data} me={user} admins={admins.data?.admins} ScheduleDialog={ScheduleDialog} moreActions={moreActions} />
  );
}

function BackToLeads() {
  return (
    <Link to="/dashboard/leads" className="inline-flex items-center gap-1.5 text-sm font-medium text-blue-700 hover:underline">
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to Leads
    </Link>
  );
}

type WorkspaceProps = {
  lead: LeadDetail;
  me: ReturnType<typeof useAuth>['user'];
  admins: AdminSummary[] | undefined;
  ScheduleDialog: ScheduleDialogForLead | undefined;
  moreActions: Props['moreActions'];
};

function LeadWorkspace({ lead, me, admins, ScheduleDialog, moreActions }: WorkspaceProps) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [scheduling, setScheduling] = useState(false);
  const [editing, setEditing] = useState(false);
  // Open: a new message, or a Reply to one of theirs on the timeline.
  const [emailing, setEmailing] = useState<{ reply?: ReplyTo } | undefined>();
  const [deleting, setDeleting] = useState(false);
  const pipeline = usePipeline();
  // The Dropped stage chosen in the Stage menu, until the reason is given.
  const [losing, setLosing] = useState<string>();
  const [loggingCall, setLoggingCall] = useState(false);
  // Leaves the page at once, so it never shows "Lead not found." for the lead just deleted.
  const leave = () => {
    void navigate('/dashboard/leads', { replace: true });
    client.removeQueries({ queryKey: leadQueryOptions(lead.id).queryKey });
  };

  return (
    <article aria-labelledby="lead-heading" className="mx-auto max-w-6xl space-y-5">
      <BackToLeads />
      <LeadHeader
        lead={lead}
        me={me}
        admins={admins}
        onSchedule={() => setScheduling(true)}
        onEmail={() => setEmailing({})}
        onEdit={() => setEditing(true)}
        onDelete={() => setDeleting(true)}
        stages={pipeline.data?.stages}
        onLose={setLosing}
        onLogCall={() => setLoggingCall(true)}
        moreActions={
          <>
            <MergeLeadsButton lead={lead} />
            <LeadPrivacyActions lead={lead} onErased={leave} />
            {moreActions?.(lead)}
          </>
        }
      />
      {/* One column on phones, in reading order; two from 1024 px: the lead on the left, its activity on the right. */}
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="min-w-0 space-y-5">
          <LeadDetailsCard lead={lead} />
          <CustomerMessage lead={lead} />
          <NextStepCard lead={lead} />
          <TasksCard lead={lead} />
        </div>
        <div className="min-w-0 space-y-5">
          <NoteComposer leadId={lead.id} />
          <LeadTimeline leadId={lead.id} myId={me?.id} onReply={lead.do_not_email ? undefined : (reply) => setEmailing({ reply })} />
        </div>
      </div>
      {ScheduleDialog ? <ScheduleDialog open={scheduling} onOpenChange={setScheduling} lead={lead} /> : null}
      <SendEmailDialog
        open={emailing !== undefined}
        onOpenChange={(open) => !open && setEmailing(undefined)}
        lead={lead}
        reply={emailing?.reply}
      />
      <EditLeadDialog leadId={editing ? lead.id : null} onClose={() => setEditing(false)} />
      <DeleteLeadDialog lead={deleting ? lead : null} onClose={() => setDeleting(false)} onDeleted={leave} />
      <LogCallDialog leadId={lead.id} name={lead.full_name} open={loggingCall} onClose={() => setLoggingCall(false)} />
      <LoseDealDialog
        lead={lead}
        stage={pipeline.data?.stages.find((s) => s.id === losing)}
        reasons={pipeline.data?.lost_reasons ?? []}
        onClose={() => setLosing(undefined)}
      />
    </article>
  );
}
