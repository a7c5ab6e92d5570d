import { Check, Copy } from '#client/components/icons.tsx';
import { useState } from 'react';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { formatDate } from '#client/lib/format.ts';
import { useCalendarFeed, useCreateCalendarFeed, useRevokeCalendarFeed } from '../api/calendar-feed.ts';

type Props = { open: boolean; onOpenChange: (open: boolean) => void };

const button = 'rounded-md px-4 py-2 text-sm font-medium disabled:opacity-60';

/** The private subscription URL for Google Calendar, Outlook and others: create, copy once, revoke. */
export function CalendarFeedDialog({ open, onOpenChange }: Props) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Calendar feed"
      description="Subscribe to the appointments from Google Calendar, Outlook or Apple Calendar."
    >
      <CalendarFeedPanel />
    </Modal>
  );
}

function CalendarFeedPanel() {
  const feed = useCalendarFeed(true);
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  // The URL exists only in the answer that created it (the server keeps a hash).
  const [url, setUrl] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirmRevoke, setConfirmRevoke] = useState(false);

  const createFeed = () =>
    create.mutate(undefined, {
      onSuccess: (created) => {
        setUrl(created.url ?? null);
        setCopied(false);
      },
      onError: (error) => {
        console.error('Creating the calendar feed failed', error);
        toast.error('Failed to create the calendar feed');
      },
    });

  const revokeFeed = () =>
    revoke.mutate(undefined, {
      onSuccess: () => {
        setUrl(null);
        toast.success('Calendar feed revoked');
      },
      onError: (error) => {
        console.error('Revoking the calendar feed failed', error);
        toast.error('Failed to revoke the calendar feed');
      },
      onSettled: () => setConfirmRevoke(false),
    });

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      toast.error('Could not copy; select the URL and copy it');
    }
  };

  if (feed.isPending) return <Spinner className="py-6" label="Loading calendar feed..." />;
  const active = feed.data?.active ?? false;

  return (
    <div className="space-y-4 text-sm text-slate-700">
      <p>
        {feed.isError
          ? 'Could not check the calendar feed. Creating a new URL still works.'
          : active
            ? `A feed URL is active (created ${formatDate(feed.data?.created_at)}). Anyone with the URL can read the appointments.`
            : 'No feed URL is active.'}
      </p>
      {url ? (
        <div className="space-y-2">
          <label htmlFor="calendar-feed-url" className="block font-medium text-slate-900">
            Your feed URL
          </label>
          <div className="flex gap-2">
            <input
              id="calendar-feed-url"
              readOnly
              value={url}
              onFocus={(event) => event.target.select()}
              className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs"
            />
            <button
              type="button"
              onClick={() => void copy()}
              className={`${button} inline-flex items-center gap-1 border border-slate-300 hover:bg-slate-50`}
            >
              {copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
          <p className="text-xs text-slate-500">
            Copy it now: it is shown only once. It replaces any earlier feed URL, which no longer works.
          </p>
        </div>
      ) : null}
      <div className="flex flex-wrap justify-end gap-3 pt-2">
        {active ? (
          <button
            type="button"
            onClick={() => setConfirmRevoke(true)}
            className={`${button} border border-red-200 text-red-700 hover:bg-red-50`}
          >
            Revoke
          </button>
        ) : null}
        <button
          type="button"
          onClick={createFeed}
          disabled={create.isPending}
          className={`${button} bg-blue-700 font-semibold text-white hover:bg-blue-800`}
        >
          {create.isPending ? 'Creating...' : active ? 'Create new URL' : 'Create feed URL'}
        </button>
      </div>
      {active && !url ? <p className="text-xs text-slate-500">A new URL replaces the current one, which then stops working.</p> : null}
      <ConfirmDialog
        open={confirmRevoke}
        onOpenChange={setConfirmRevoke}
        title="Revoke calendar feed"
        description="Calendar apps subscribed to this URL will stop receiving appointments."
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={revokeFeed}
      />
    </div>
  );
}
