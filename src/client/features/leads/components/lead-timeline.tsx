import { Spinner } from '#client/components/ui/spinner.tsx';
import type { TimelineEntry } from '#shared/schemas/lead-workspace';
import { useTimeline } from '../api/get-timeline.ts';
import { EMAIL_STATUS_LABEL, entryActor, entryTitle, visitText } from '../timeline-text.ts';
import { EntryMeta } from './entry-meta.tsx';
import { LinkedText } from './linked-text.tsx';
import { NoteEntry } from './note-entry.tsx';
import { EarlierMessages, type Message } from './earlier-messages.tsx';
import { ReplyDetails, ReplyText } from './reply-entry.tsx';
import { ShowOlderButton } from './show-older-button.tsx';
import type { ReplyTo } from './send-email-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useRetryLeadEmail } from '../api/send-email.ts';
import { useMarkRepliesRead } from '../api/replies.ts';
import { useEffect } from 'react';

const EMAIL_STATUS_CLASS = {
  queued: 'bg-slate-100 text-slate-700',
  sent: 'bg-green-100 text-green-800',
  failed: 'bg-red-100 text-red-800',
  not_sent: 'bg-amber-100 text-amber-900',
} as const;

/** Everything that happened to the lead, newest first; older entries a page at a time. */
export function LeadTimeline({
  leadId,
  myId,
  onReply,
}: {
  leadId: string;
  myId: string | undefined;
  /** Answer one of their messages (undefined: they are marked Do not email). */
  onReply?: ((reply: ReplyTo) => void) | undefined;
}) {
  const timeline = useTimeline(leadId);
  const entries = timeline.data?.pages.flatMap((page) => page.entries) ?? [];
  useMarkShownRepliesRead(leadId, entries);
  return (
    <section aria-labelledby="timeline-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h2 id="timeline-heading" className="text-lg font-semibold text-slate-900">
        Timeline
      </h2>
      {timeline.isPending ? (
        <Spinner className="py-8" label="Loading the timeline..." />
      ) : timeline.isError ? (
        <p className="mt-3 text-sm text-red-700">The timeline could not be loaded. Please reload the page.</p>
      ) : entries.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">Nothing has happened yet.</p>
      ) : (
        <ol className="mt-3 space-y-4 border-l-2 border-slate-200 pl-4" aria-label="Timeline, newest first">
          {entries.map((entry) => (
            // A conversation keeps its place (and whether it is open) when a newer message becomes its top.
            <li
              key={entry.kind === 'email_in' || entry.kind === 'email_out' ? `thread:${entry.thread_id}` : entry.id}
              className="relative"
              data-kind={entry.kind}
            >
              <span
                aria-hidden="true"
                className="absolute top-1.5 -left-[1.4rem] size-2.5 rounded-full border-2 border-white bg-slate-400"
              />
              {entry.kind === 'note' ? (
                <NoteEntry note={entry.note} mine={myId !== undefined && entry.note.author_id === myId} />
              ) : (
                <Entry entry={entry} leadId={leadId} onReply={onReply} />
              )}
            </li>
          ))}
        </ol>
      )}
      <ShowOlderButton pages={timeline} label="Show older" className="mt-4" />
    </section>
  );
}

/**
 * Unread replies on the page are read once shown: marked for everyone (the Unread badge stays
 * until the next refresh). A conversation shows as its newest message, at its latest time: its
 * earlier unread replies are older than that, so marked with it.
 */
function useMarkShownRepliesRead(leadId: string, entries: TimelineEntry[]) {
  const { mutate } = useMarkRepliesRead();
  // The newest conversation with an unread reply: those up to it are read; one that arrives after stays unread.
  const upTo = entries.reduce<string | undefined>(
    (newest, e) => ((e.kind === 'email_in' || e.kind === 'email_out') && e.thread_unread > 0 && (!newest || e.at > newest) ? e.at : newest),
    undefined,
  );
  useEffect(() => {
    if (upTo) mutate({ leadId, upTo });
  }, [leadId, upTo, mutate]);
}

/** What answering a message is: to its sender (theirs), or to whom it went (ours), "Re:" its subject. */
const replyTo = (message: Message): ReplyTo =>
  message.kind === 'email_in'
    ? { id: message.email_in_id, from: message.from, subject: message.subject }
    : { id: message.email_id, from: message.to, subject: message.subject };

function Entry({
  entry,
  leadId,
  onReply,
  inThread = false,
}: {
  entry: Exclude<TimelineEntry, { kind: 'note' }>;
  leadId: string;
  onReply: ((reply: ReplyTo) => void) | undefined;
  /** Drawn inside its conversation, under the newest message (which holds the rest). */
  inThread?: boolean;
}) {
  const message = entry.kind === 'email_in' || entry.kind === 'email_out' ? entry : undefined;
  return (
    <div className="min-w-0 space-y-1 text-sm">
      <p className="font-medium break-words text-slate-900">
        {entryTitle(entry)}
        {entry.kind === 'email_out' ? (
          <span className={`ml-2 inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${EMAIL_STATUS_CLASS[entry.status]}`}>
            {EMAIL_STATUS_LABEL[entry.status]}
          </span>
        ) : null}
      </p>
      <EntryMeta who={entryActor(entry)} at={entry.at} />
      <EntryDetails entry={entry} />
      {entry.kind === 'email_out' ? <EmailProblem entry={entry} leadId={leadId} /> : null}
      {message && onReply ? (
        <Button
          variant="secondary"
          size="sm"
          onClick={() => onReply(replyTo(message))}
          aria-label={`Reply to ${message.subject || 'this message'}, ${message.kind === 'email_in' ? 'from' : 'to'} ${replyTo(message).from}`}
        >
          Reply
        </Button>
      ) : null}
      {message && !inThread && message.thread_size > 1 ? (
        <EarlierMessages
          leadId={leadId}
          head={message}
          render={(earlier) => <Entry entry={earlier} leadId={leadId} onReply={onReply} inThread />}
        />
      ) : null}
    </div>
  );
}

function EntryDetails({ entry }: { entry: Exclude<TimelineEntry, { kind: 'note' }> }) {
  if (entry.kind === 'email_in') return <ReplyDetails entry={entry} />;
  if (entry.kind === 'email_out')
    return (
      <>
        <p className="text-xs break-all text-slate-500">To {entry.to}</p>
        {entry.body !== null ? <ReplyText replyId={entry.email_id} body={entry.body} truncated={false} attachments={[]} /> : null}
      </>
    );
  if (entry.kind === 'call')
    return entry.notes ? (
      <blockquote className="border-l-4 border-slate-200 pl-3 text-slate-700">
        <LinkedText text={entry.notes} />
      </blockquote>
    ) : null;
  if (entry.kind !== 'created' && entry.kind !== 'inquiry') return null;
  const visit = visitText(entry.visit);
  const as = entry.kind === 'inquiry' ? [entry.full_name, entry.phone].filter(Boolean).join(', ') : '';
  return (
    <>
      {as ? <p className="text-xs break-words text-slate-600">As {as}</p> : null}
      {entry.message ? (
        <blockquote className="border-l-4 border-slate-200 pl-3 text-slate-700 italic">
          <LinkedText text={entry.message} />
        </blockquote>
      ) : null}
      {visit ? <p className="text-xs break-words text-slate-500">{visit}</p> : null}
    </>
  );
}

/**
 * Why a message failed or was not sent (or why it is being tried again), and, for one a person
 * wrote here, **Send again** once it failed or was not sent.
 */
function EmailProblem({ entry, leadId }: { entry: Extract<TimelineEntry, { kind: 'email_out' }>; leadId: string }) {
  const retry = useRetryLeadEmail();
  if (!entry.error) return null;
  const again = entry.email_kind === 'lead-message' && (entry.status === 'failed' || entry.status === 'not_sent');
  const sendAgain = () =>
    retry.mutate(
      { leadId, emailId: entry.email_id },
      {
        onSuccess: () => toast.success('Email queued again'),
        onError: (error) => {
          console.error('Sending the email again failed', error);
          toast.error(error instanceof ApiError && error.status < 500 ? error.message : 'Failed to retry the email');
        },
      },
    );
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p className="text-xs break-words text-slate-600">{entry.error}</p>
      {again ? (
        <Button onClick={sendAgain} disabled={retry.isPending} variant="secondary" size="sm">
          {retry.isPending ? 'Sending...' : 'Send again'}
        </Button>
      ) : null}
    </div>
  );
}
