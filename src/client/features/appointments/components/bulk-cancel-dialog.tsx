import { useEffect, useId, useState, type FormEvent } from 'react';
import { Modal } from '#client/components/ui/modal.tsx';
import { RadioGroup } from '#client/components/ui/radio-group.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useBulkCancel, useBulkCancelPreview, useWebsiteNetworks, type BookingCriteria } from '../api/bulk-cancel.ts';
import { Button } from '#client/components/ui/button.tsx';

type Props = { open: boolean; onOpenChange: (open: boolean) => void };
type By = 'network' | 'window';

/** "12 calls", "1 call". */
export const callsText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'call' : 'calls'}`;

/** A Date as a datetime-local input's value, in the browser's time. */
function inputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A datetime-local value (browser time, to the minute) as ISO 8601, or undefined when empty or
 * not a time. `endOfMinute`: its last millisecond, so "until 10:32" includes what was booked
 * at 10:32:40 (the window's end, "now" at first, holds what was just booked).
 */
function isoOf(value: string, endOfMinute = false): string | undefined {
  const ms = value ? new Date(value).getTime() : NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms + (endOfMinute ? 59_999 : 0)).toISOString();
}

function criteriaOf(by: By, network: string, from: string, to: string): BookingCriteria | undefined {
  if (by === 'network') return network.trim() ? { network: network.trim() } : undefined;
  const [start, end] = [isoOf(from), isoOf(to, true)];
  return start && end && start <= end ? { booked_from: start, booked_to: end } : undefined;
}

/** `value` once it has stayed the same for 300 ms (compared as JSON). */
function useSettled<T>(value: T): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled((key === undefined ? undefined : JSON.parse(key)) as T), 300);
    return () => clearTimeout(timer);
  }, [key]);
  return settled;
}

/**
 * Cancel website bookings…: the upcoming calls visitors booked on the website from one network
 * or within a time window, at once (a flood of fake bookings). A preview counts them; nobody is
 * emailed unless "Email them" is ticked; the leads are kept and marked.
 */
export function BulkCancelDialog({ open, onOpenChange }: Props) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Cancel website bookings"
      description="Cancel at once the upcoming calls visitors booked on the website from one network or within a time window. Their leads are kept and marked as suspected abuse."
    >
      <BulkCancelForm onDone={() => onOpenChange(false)} />
    </Modal>
  );
}

function BulkCancelForm({ onDone }: { onDone: () => void }) {
  const [by, setBy] = useState<By>('network');
  const [network, setNetwork] = useState('');
  const [from, setFrom] = useState(() => inputValue(new Date(Date.now() - 3_600_000)));
  const [to, setTo] = useState(() => inputValue(new Date()));
  const [notify, setNotify] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const networks = useWebsiteNetworks();
  const cancel = useBulkCancel();
  const previewId = useId();
  const emailHintId = useId();

  const criteria = criteriaOf(by, network, from, to);
  // Counted once typing pauses, not at every keystroke.
  const settled = useSettled(criteria);
  const preview = useBulkCancelPreview(settled);
  const previewError =
    preview.error instanceof ApiError && JSON.stringify(criteria) === JSON.stringify(settled) ? preview.error : undefined;
  const current = JSON.stringify(criteria) === JSON.stringify(settled) && !preview.isPlaceholderData;
  const count = criteria && current && !preview.isError ? preview.data?.count : undefined;

  const previewText = !criteria
    ? by === 'network'
      ? 'Enter a network or IP address to see how many calls match.'
      : 'Choose when the bookings were made to see how many calls match.'
    : previewError
      ? (Object.values(previewError.fields ?? {})[0] ?? previewError.message)
      : count === undefined
        ? 'Counting…'
        : count === 0
          ? 'No upcoming website bookings match.'
          : `${callsText(count)} will be cancelled.`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!criteria) {
      setErrors(
        by === 'network'
          ? { network: 'Enter an IP address or a network like 203.0.113.0/24' }
          : { booked_to: 'The window must end after it starts' },
      );
      return;
    }
    if (!count) return;
    cancel.mutate(
      { ...criteria, notify },
      {
        onSuccess: (done) => {
          toast.success(`${callsText(done.count)} cancelled`);
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) {
            setErrors(error.fields);
            return;
          }
          console.error('Cancelling website bookings failed', error);
          toast.error('Failed to cancel the bookings');
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-4 text-sm text-slate-700" aria-describedby={previewId}>
      <RadioGroup<By>
        legend="Which bookings"
        value={by}
        onChange={(value) => {
          setBy(value);
          setErrors({});
        }}
        columns
        options={[
          { value: 'network', label: 'From one network' },
          { value: 'window', label: 'Booked in a time window' },
        ]}
      />
      {by === 'network' ? (
        <div className="space-y-3">
          <TextField
            label="Network or IP address"
            name="network"
            placeholder="203.0.113.0/24"
            autoComplete="off"
            spellCheck={false}
            value={network}
            error={errors.network}
            onChange={(event) => {
              setNetwork(event.target.value);
              setErrors({});
            }}
          />
          <NetworkChoices networks={networks.data?.networks ?? []} onPick={setNetwork} />
        </div>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label="Booked from"
            name="booked_from"
            type="datetime-local"
            value={from}
            error={errors.booked_from}
            onChange={(event) => setFrom(event.target.value)}
          />
          <TextField
            label="Booked until"
            name="booked_to"
            type="datetime-local"
            value={to}
            error={errors.booked_to}
            onChange={(event) => setTo(event.target.value)}
          />
          <p className="text-xs text-slate-500 sm:col-span-2">When the visitors booked, in your computer’s time; both ends included.</p>
        </div>
      )}
      <p
        id={previewId}
        role="status"
        aria-live="polite"
        className={`rounded-md px-3 py-2 font-medium ${count ? 'bg-amber-50 text-amber-900' : 'bg-slate-50 text-slate-700'}`}
      >
        {previewText}
      </p>
      <div className="flex items-start gap-3">
        <input
          id={`${emailHintId}-box`}
          type="checkbox"
          checked={notify}
          onChange={(event) => setNotify(event.target.checked)}
          aria-describedby={emailHintId}
          className="mt-0.5 size-4 shrink-0 accent-blue-700"
        />
        <div>
          <label htmlFor={`${emailHintId}-box`} className="font-medium text-slate-900">
            Email them
          </label>
          <p id={emailHintId} className="text-xs text-slate-600">
            Tell each person their call is cancelled. Unticked, nobody is emailed.
          </p>
        </div>
      </div>
      <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
        <Button onClick={onDone} variant="secondary">
          Keep them
        </Button>
        <Button type="submit" disabled={!count || cancel.isPending} variant="danger">
          {cancel.isPending ? 'Cancelling...' : count ? `Cancel ${callsText(count)}` : 'Cancel calls'}
        </Button>
      </div>
    </form>
  );
}

/** The networks with the most upcoming website bookings: a click fills the field. */
function NetworkChoices({ networks, onPick }: { networks: { network: string; upcoming: number }[]; onPick: (network: string) => void }) {
  if (networks.length === 0) return null;
  return (
    <div>
      <p className="text-xs font-medium text-slate-600">Most upcoming website bookings</p>
      <ul className="mt-1 flex flex-wrap gap-2">
        {networks.map((n) => (
          <li key={n.network}>
            <button
              type="button"
              onClick={() => onPick(n.network)}
              aria-label={`Use ${n.network}, ${callsText(n.upcoming)} upcoming`}
              className="rounded-full border border-slate-300 bg-white px-3 py-1 font-mono text-xs break-all text-slate-800 hover:bg-slate-50"
            >
              {n.network} · {n.upcoming}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
