import { useRef, useState, type FormEvent } from 'react';
import type { CalendarConnection } from '#shared/schemas/calendars';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/lazy-dialog.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { RadioGroup } from '#client/components/ui/radio-group.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useCalendars, useConnectCalendar, useRemoveCalendar, useSyncCalendar } from '../api/calendar-connections.ts';
import { CalendarChoiceDialog } from './calendar-choice-dialog.tsx';
import { Card } from './card.tsx';

/**
 * The account page's Calendars: the outside calendars whose busy times keep website visitors
 * from booking you then (read every 5 minutes), each with when it was last read or why it
 * could not be, Sync now and Remove; Connect a calendar adds an iCal link or a CalDAV account,
 * whose calendars are then chosen (busy ones, and the one booked calls go to).
 */
export function CalendarsSection() {
  const calendars = useCalendars();
  const [connecting, setConnecting] = useState(false);
  const [choosing, setChoosing] = useState<CalendarConnection | null>(null);
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
                <ConnectionRow key={connection.id} connection={connection} onChoose={() => setChoosing(connection)} />
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
          <ConnectDialog
            open={connecting}
            onOpenChange={setConnecting}
            onConnected={(made) => {
              setConnecting(false);
              // A CalDAV account: straight on to which calendars count and where booked calls go.
              if (made.kind === 'caldav') setChoosing(made);
            }}
          />
          <CalendarChoiceDialog connection={choosing} onOpenChange={(open) => (open ? null : setChoosing(null))} />
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

function ConnectionRow({ connection, onChoose }: { connection: CalendarConnection; onChoose: () => void }) {
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
          {connection.label} <span className="font-normal text-slate-600">({connection.kind === 'ics' ? 'iCal link' : 'CalDAV'})</span>
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
        {connection.kind === 'caldav' ? <WriteState connection={connection} /> : null}
        {connection.warnings.map((warning) => (
          <p key={warning} className="mt-1 text-amber-800">
            {warning}
          </p>
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        {connection.kind === 'caldav' ? (
          <Button variant="secondary" size="sm" onClick={onChoose}>
            Choose calendars
          </Button>
        ) : null}
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

/** Where a CalDAV account's booked calls go, and any that could not be written. */
function WriteState({ connection }: { connection: CalendarConnection }) {
  const target = connection.calendars.find((c) => c.url === connection.write_calendar);
  return (
    <>
      <p className="text-slate-600">{target ? `Booked calls go to ${target.name}` : 'Booked calls are not added to a calendar'}</p>
      {connection.unwritten > 0 ? (
        <p role="status" className="mt-1 text-red-700 [overflow-wrap:anywhere]">
          {connection.unwritten === 1 ? '1 booked call' : `${connection.unwritten} booked calls`} could not be written:{' '}
          {connection.write_error} It will be tried again.
        </p>
      ) : null}
    </>
  );
}

type ConnectProps = { open: boolean; onOpenChange: (open: boolean) => void; onConnected: (made: CalendarConnection) => void };

function ConnectDialog({ open, onOpenChange, onConnected }: ConnectProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Connect a calendar"
      description="An iCal link is read for busy times. A CalDAV account (iCloud, Fastmail, Nextcloud, Zoho…) is read too, and can receive the calls booked with you."
    >
      <ConnectForm onCancel={() => onOpenChange(false)} onConnected={onConnected} />
    </Modal>
  );
}

const KINDS = [
  {
    value: 'ics',
    label: 'iCal link',
    hint: 'Google Calendar: Settings → your calendar → Secret address in iCal format. Outlook: Settings → Calendar → Shared calendars → Publish a calendar (ICS).',
  },
  {
    value: 'caldav',
    label: 'CalDAV account',
    hint: 'iCloud: https://caldav.icloud.com with an app-specific password. Fastmail: https://caldav.fastmail.com. Nextcloud: https://your-server/remote.php/dav.',
  },
] as const;

type Fields = { url: string; username: string; password: string };

function ConnectForm({ onCancel, onConnected }: { onCancel: () => void; onConnected: (made: CalendarConnection) => void }) {
  const connect = useConnectCalendar();
  const [kind, setKind] = useState<'ics' | 'caldav'>('ics');
  const [fields, setFields] = useState<Fields>({ url: '', username: '', password: '' });
  const [errors, setErrors] = useState<Partial<Fields>>({});
  const set = (name: keyof Fields) => (e: { currentTarget: HTMLInputElement }) => {
    const value = e.currentTarget.value;
    setFields((now) => ({ ...now, [name]: value }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const body =
        kind === 'ics'
          ? { kind, url: fields.url.trim() }
          : { kind, url: fields.url.trim(), username: fields.username.trim(), password: fields.password };
      const made = await connect.mutateAsync(body);
      toast.success(`${made.label} connected`);
      setFields({ url: '', username: '', password: '' });
      setErrors({});
      onConnected(made);
    } catch (caught) {
      console.error('Connecting the calendar failed', caught);
      if (caught instanceof ApiError && caught.status < 500)
        setErrors(caught.fields ? (caught.fields as Partial<Fields>) : { [kind === 'ics' ? 'url' : 'password']: caught.message });
      else toast.error('Failed to connect the calendar');
    }
  };
  const ready = fields.url.trim() !== '' && (kind === 'ics' || (fields.username.trim() !== '' && fields.password !== ''));

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <RadioGroup
        legend="Kind"
        value={kind}
        onChange={(next) => {
          setKind(next);
          setErrors({});
        }}
        options={KINDS}
      />
      <TextField
        label={kind === 'ics' ? 'iCal link' : 'Server address'}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={kind === 'ics' ? 'https://calendar.google.com/calendar/ical/…/basic.ics' : 'https://caldav.icloud.com'}
        value={fields.url}
        onChange={set('url')}
        error={errors.url}
      />
      {kind === 'caldav' ? (
        <>
          <TextField
            label="Username"
            autoComplete="off"
            spellCheck={false}
            value={fields.username}
            onChange={set('username')}
            error={errors.username}
          />
          <TextField
            label="App password"
            type="password"
            autoComplete="new-password"
            value={fields.password}
            onChange={set('password')}
            error={errors.password}
          />
        </>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={connect.isPending || !ready}>
          {connect.isPending ? 'Connecting...' : 'Connect'}
        </Button>
      </div>
    </form>
  );
}
