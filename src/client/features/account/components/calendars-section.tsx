import { useRef, useState, type FormEvent } from 'react';
import type { CalendarConnection } from '#shared/schemas/calendars';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/lazy-dialog.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useCalendars, useConnectCalendar, useRemoveCalendar, useSyncCalendar } from '../api/calendars.ts';
import { Card } from './card.tsx';

/**
 * The account page's Calendars: the outside calendars whose busy times keep website visitors
 * from booking you then (read every 5 minutes), each with when it was last read or why it
 * could not be, Sync now and Remove; Connect a calendar adds one by its iCal link.
 */
export function CalendarsSection() {
  const calendars = useCalendars();
  const [connecting, setConnecting] = useState(false);
  const data = calendars.data;
  return (
    <Card
      title="Calendars"
      description="Busy times in these calendars keep website visitors from booking you then. Only times are read, never titles or details."
    >
      {data ? (
        <>
          {data.connections.length === 0 ? (
            <p className="mt-4 text-sm text-slate-600">No calendars connected.</p>
          ) : (
            <ul className="mt-4 divide-y divide-slate-200 rounded-md border border-slate-200">
              {data.connections.map((connection) => (
                <ConnectionRow key={connection.id} connection={connection} />
              ))}
            </ul>
          )}
          {data.credentials_ready ? (
            <Button className="mt-4" onClick={() => setConnecting(true)}>
              Connect a calendar
            </Button>
          ) : (
            <p role="note" className="mt-4 text-sm text-amber-800">
              {data.credentials_reason}
            </p>
          )}
          <ConnectDialog open={connecting} onOpenChange={setConnecting} />
        </>
      ) : calendars.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          Your calendars could not be loaded.
        </p>
      ) : (
        <Spinner label="Loading calendars..." />
      )}
    </Card>
  );
}

function ConnectionRow({ connection }: { connection: CalendarConnection }) {
  const sync = useSyncCalendar();
  const remove = useRemoveCalendar();
  const [removing, setRemoving] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);

  const syncNow = async () => {
    try {
      const now = await sync.mutateAsync(connection.id);
      if (now.last_error) toast.error(`${now.label} could not be synced`);
      else toast.success(`${now.label} synced`);
    } catch (error) {
      console.error('Syncing the calendar failed', error);
      toast.error(error instanceof ApiError && error.status === 409 ? error.message : 'Failed to sync the calendar');
    }
  };
  const confirmRemove = async () => {
    try {
      await remove.mutateAsync(connection.id);
      setRemoving(false);
      toast.success('Calendar removed');
    } catch (error) {
      console.error('Removing the calendar failed', error);
      toast.error('Failed to remove the calendar');
    }
  };

  return (
    <li className="flex flex-wrap items-start justify-between gap-3 p-3">
      <div className="min-w-0 text-sm">
        <p className="font-medium text-slate-900 [overflow-wrap:anywhere]">
          {connection.label} <span className="font-normal text-slate-600">(iCal link)</span>
        </p>
        <p className="text-slate-600">
          {connection.last_synced_at ? (
            <>
              Last synced <RelativeTime iso={connection.last_synced_at} />
            </>
          ) : (
            'Not synced yet'
          )}
          {connection.last_error ? null : ` · ${connection.busy_count} busy ${connection.busy_count === 1 ? 'time' : 'times'} ahead`}
        </p>
        {connection.last_error ? (
          <p role="status" className="mt-1 text-red-700 [overflow-wrap:anywhere]">
            Could not sync: {connection.last_error} The busy times last read still count.
          </p>
        ) : null}
        {connection.warnings.map((warning) => (
          <p key={warning} className="mt-1 text-amber-800">
            {warning}
          </p>
        ))}
      </div>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={sync.isPending} onClick={() => void syncNow()}>
          {sync.isPending ? 'Syncing...' : 'Sync now'}
        </Button>
        <Button ref={removeButton} variant="secondary" size="sm" onClick={() => setRemoving(true)}>
          Remove
        </Button>
      </div>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title="Remove calendar?"
        description={`Busy times from ${connection.label} will no longer keep visitors from booking you.`}
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() => void confirmRemove()}
        returnFocusRef={removeButton}
      />
    </li>
  );
}

function ConnectDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Connect a calendar"
      description="Paste your calendar's secret iCal address: in Google Calendar, Settings → your calendar → Secret address in iCal format; in Outlook, Settings → Calendar → Shared calendars → Publish a calendar (ICS)."
    >
      <ConnectForm onDone={() => onOpenChange(false)} />
    </Modal>
  );
}

function ConnectForm({ onDone }: { onDone: () => void }) {
  const connect = useConnectCalendar();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const made = await connect.mutateAsync({ kind: 'ics', url: url.trim() });
      toast.success(`${made.label} connected`);
      setUrl('');
      setError(undefined);
      onDone();
    } catch (caught) {
      console.error('Connecting the calendar failed', caught);
      if (caught instanceof ApiError && caught.status < 500) setError(caught.fields?.url ?? caught.message);
      else toast.error('Failed to connect the calendar');
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <TextField
        label="iCal link"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
        error={error}
      />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={connect.isPending || url.trim() === ''}>
          {connect.isPending ? 'Connecting...' : 'Connect'}
        </Button>
      </div>
    </form>
  );
}
