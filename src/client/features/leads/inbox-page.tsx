import { useState } from 'react';
import type { InboxMessage } from '#shared/schemas/inbox';
import { Button } from '#client/components/ui/button.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { type InboxView, useAttachInbound, useDismissInbound, useInbox, useLeadFromInbound, useLeadMatches } from './api/inbox-messages.ts';
import { AddLeadDialog } from './components/add-lead-dialog.tsx';
import { ReplyText } from './components/reply-entry.tsx';

const failed = (error: unknown, fallback: string) => {
  console.error(fallback, error);
  toast.error(error instanceof ApiError && error.status < 500 ? error.message : fallback);
};

/**
 * /dashboard/inbox: mail to the reply address that joined no lead. Staff put a message on a
 * lead's page, make a lead of it, or dismiss it (dismissed mail is deleted after 30 days).
 */
export function InboxPage() {
  const [view, setView] = useState<InboxView>('open');
  const inbox = useInbox(view);
  return (
    <section className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold text-slate-900">Inbox</h1>
        <p className="text-sm text-slate-600">
          Mail to the firm’s reply address that matched no lead. Put it on a lead’s page, make a lead of it, or dismiss it.
        </p>
      </div>
      <div role="group" aria-label="Show" className="flex gap-2">
        {(['open', 'dismissed'] as const).map((v) => (
          <button
            key={v}
            type="button"
            aria-pressed={view === v}
            onClick={() => setView(v)}
            className={`rounded-md border px-3 py-1.5 text-sm font-medium ${view === v ? 'border-blue-700 bg-blue-50 text-blue-800' : 'border-slate-300 text-slate-700 hover:bg-slate-50'}`}
          >
            {v === 'open' ? `Waiting${inbox.data ? ` (${inbox.data.open})` : ''}` : 'Dismissed'}
          </button>
        ))}
      </div>
      {inbox.data ? (
        inbox.data.messages.length === 0 ? (
          <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">
            {view === 'open'
              ? 'Nothing waiting. Replies that match a lead go straight to its page.'
              : 'Nothing dismissed in the last 30 days.'}
          </p>
        ) : (
          <ul aria-label={view === 'open' ? 'Waiting mail' : 'Dismissed mail'} className="space-y-4">
            {inbox.data.messages.map((message) => (
              <li key={message.id}>
                <InboxCard message={message} />
              </li>
            ))}
          </ul>
        )
      ) : inbox.isError ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">The Inbox could not be loaded.</p>
      ) : (
        <Spinner className="py-16" label="Loading the Inbox..." />
      )}
    </section>
  );
}

function InboxCard({ message }: { message: InboxMessage }) {
  const dismiss = useDismissInbound();
  const makeLead = useLeadFromInbound();
  const [attaching, setAttaching] = useState(false);
  const [creating, setCreating] = useState(false);
  const sender = message.from_name ? `${message.from_name} <${message.from}>` : message.from;
  const toggle = (dismissed: boolean) =>
    dismiss.mutate(
      { id: message.id, dismissed },
      {
        onSuccess: () => toast.success(dismissed ? 'Message dismissed' : 'Message back in the Inbox'),
        onError: (error) => failed(error, dismissed ? 'Failed to dismiss the message' : 'Failed to restore the message'),
      },
    );
  return (
    <article aria-label={message.subject || '(no subject)'} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold break-words text-slate-900">{message.subject || '(no subject)'}</h2>
        <p className="text-xs text-slate-500">
          <RelativeTime iso={message.received_at} />
        </p>
      </div>
      <p className="text-xs break-all text-slate-500">
        From {sender}
        {message.to ? ` · To ${message.to}` : ''}
      </p>
      {message.erased_sender ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900">
          This address belongs to a person whose data was erased at their request. Make a lead of it only if they ask to work with you
          again.
        </p>
      ) : null}
      <ReplyText replyId={message.id} body={message.body} truncated={message.truncated} attachments={message.attachments} />
      <div className="flex flex-wrap gap-2 pt-1">
        {message.dismissed_at ? (
          <Button variant="secondary" size="sm" onClick={() => toggle(false)} disabled={dismiss.isPending}>
            Restore
          </Button>
        ) : (
          <>
            <Button size="sm" onClick={() => setAttaching(true)}>
              Add to a lead
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setCreating(true)}>
              Create lead
            </Button>
            <Button variant="secondary" size="sm" onClick={() => toggle(true)} disabled={dismiss.isPending}>
              Dismiss
            </Button>
          </>
        )}
      </div>
      <AttachDialog message={message} open={attaching} onOpenChange={setAttaching} />
      <AddLeadDialog
        open={creating}
        onOpenChange={setCreating}
        initial={{
          full_name: message.from_name,
          email: message.from,
          message: `${message.subject}\n\n${message.body}`.trim().slice(0, 2000),
        }}
        create={(lead) => makeLead.mutateAsync({ id: message.id, lead })}
      />
    </article>
  );
}

/** Put the message on a lead's page: search by name, email or phone, then choose. */
function AttachDialog({ message, open, onOpenChange }: { message: InboxMessage; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [search, setSearch] = useState(message.from_name || message.from);
  const matches = useLeadMatches(open ? search : '');
  const attach = useAttachInbound();
  const choose = (leadId: string, name: string) =>
    attach.mutate(
      { id: message.id, leadId },
      {
        onSuccess: () => {
          toast.success(`Added to ${name}’s page`);
          onOpenChange(false);
        },
        onError: (error) => failed(error, 'Failed to add the message to the lead'),
      },
    );
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Add to a lead">
      <div className="space-y-3">
        <TextField label="Find a lead" type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        {matches.data && matches.data.length === 0 ? <p className="text-sm text-slate-600">No leads found</p> : null}
        <ul aria-label="Leads found" className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {(matches.data ?? []).map((lead) => (
            <li key={lead.id} className="flex items-center justify-between gap-3 p-2">
              <span className="min-w-0 text-sm break-words text-slate-800">
                {lead.full_name} <span className="text-slate-500">{lead.email}</span>
              </span>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => choose(lead.id, lead.full_name)}
                disabled={attach.isPending}
                aria-label={`Add to ${lead.full_name}`}
              >
                Add
              </Button>
            </li>
          ))}
        </ul>
      </div>
    </Modal>
  );
}
