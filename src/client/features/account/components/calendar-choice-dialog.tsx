import { useState, type FormEvent } from 'react';
import type { CalendarConnection } from '#shared/schemas/calendars';
import { FormActions } from '#client/components/ui/form-actions.tsx';
import { Modal } from '#client/components/ui/modal.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useChooseCalendars } from '../api/calendar-connections.ts';

type Props = { connection: CalendarConnection | null; onOpenChange: (open: boolean) => void };

/**
 * A CalDAV account's choice: which of its calendars count as busy (checkboxes), and which one
 * receives the calls booked with you (or none). Opens right after the account is connected.
 */
export function CalendarChoiceDialog({ connection, onOpenChange }: Props) {
  return (
    <Modal
      open={connection !== null}
      onOpenChange={onOpenChange}
      title="Choose calendars"
      description={
        connection ? `${connection.label}: which calendars keep visitors from booking you, and where your booked calls go.` : undefined
      }
    >
      {connection ? <ChoiceForm key={connection.id} connection={connection} onDone={() => onOpenChange(false)} /> : null}
    </Modal>
  );
}

function ChoiceForm({ connection, onDone }: { connection: CalendarConnection; onDone: () => void }) {
  const choose = useChooseCalendars();
  const [busy, setBusy] = useState<string[]>(connection.busy_calendars);
  const [write, setWrite] = useState<string>(connection.write_calendar ?? '');
  const [error, setError] = useState<string | undefined>();
  const writable = connection.calendars.filter((c) => c.can_write);

  const toggle = (url: string, on: boolean) => setBusy((now) => (on ? [...now, url] : now.filter((u) => u !== url)));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await choose.mutateAsync({ id: connection.id, busy_calendars: busy, write_calendar: write === '' ? null : write });
      toast.success('Calendars saved');
      onDone();
    } catch (caught) {
      console.error('Saving the calendar choice failed', caught);
      if (caught instanceof ApiError && caught.status < 500) setError(caught.message);
      else toast.error('Failed to save the calendars');
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Count as busy</legend>
        <div className="mt-2 space-y-2">
          {connection.calendars.map((calendar) => (
            <label key={calendar.url} className="flex items-start gap-3 text-sm text-slate-800">
              <input
                type="checkbox"
                checked={busy.includes(calendar.url)}
                onChange={(e) => toggle(calendar.url, e.currentTarget.checked)}
                className="mt-0.5 size-4 shrink-0 accent-blue-700"
              />
              <span className="min-w-0 [overflow-wrap:anywhere]">{calendar.name}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <SelectField label="Add booked calls to" value={write} onChange={(e) => setWrite(e.currentTarget.value)} error={error}>
        <option value="">None (don't add them)</option>
        {writable.map((calendar) => (
          <option key={calendar.url} value={calendar.url}>
            {calendar.name}
          </option>
        ))}
      </SelectField>
      <p className="text-xs text-slate-600">
        Calls booked with you are added there with the lead's name, phone and the notes, moved when they move and removed when they are
        cancelled.
      </p>
      <FormActions busy={choose.isPending} label="Save" busyLabel="Saving..." onCancel={onDone} />
    </form>
  );
}
