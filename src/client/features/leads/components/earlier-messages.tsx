import { useId, useState, type ReactNode } from 'react';
import type { TimelineEntry } from '#shared/schemas/lead-workspace';
import { Button } from '#client/components/ui/button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useThread } from '../api/get-thread.ts';
import { ShowOlderButton } from './show-older-button.tsx';

export type Message = Extract<TimelineEntry, { kind: 'email_out' | 'email_in' }>;

/**
 * The rest of a conversation the timeline shows as its newest message (`head`): closed, a
 * button says how many earlier messages there are; open, they follow, newest first, each
 * drawn by `render` (with its own Reply), older ones a page at a time.
 */
export function EarlierMessages({ leadId, head, render }: { leadId: string; head: Message; render: (m: Message) => ReactNode }) {
  // Unread replies behind the newest message: open from the start, so they are shown before they count as read.
  const unread = head.thread_unread - (head.kind === 'email_in' && head.unread ? 1 : 0);
  const [open, setOpen] = useState(unread > 0);
  const thread = useThread(leadId, head.thread_id, open);
  const listId = useId();
  const earlier = (thread.data?.pages.flatMap((page) => page.entries) ?? []).filter(
    (e): e is Message => e.id !== head.id && (e.kind === 'email_out' || e.kind === 'email_in'),
  );
  const count = head.thread_size - 1;
  return (
    <div className="space-y-2">
      <Button variant="secondary" size="sm" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide earlier messages' : `Show ${count} earlier ${count === 1 ? 'message' : 'messages'}`}
        {!open && unread > 0 ? ` (${unread} unread)` : ''}
        <span className="sr-only"> of “{head.subject || 'no subject'}”</span>
      </Button>
      <div id={listId} hidden={!open}>
        {!open ? null : thread.isPending ? (
          <Spinner className="py-4" label="Loading the conversation..." />
        ) : thread.isError && earlier.length === 0 ? (
          <div className="flex flex-wrap items-center gap-2">
            <p className="text-sm text-red-700">The conversation could not be loaded.</p>
            <Button variant="secondary" size="sm" onClick={() => void thread.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <ol aria-label="Earlier messages in this conversation, newest first" className="space-y-4 border-l-2 border-blue-100 pl-3">
            {earlier.map((message) => (
              <li key={message.id} data-kind={message.kind}>
                {render(message)}
              </li>
            ))}
          </ol>
        )}
        {open ? <ShowOlderButton pages={thread} label="Show older messages" className="mt-3" /> : null}
      </div>
    </div>
  );
}
