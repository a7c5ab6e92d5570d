import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { WEBHOOK_EVENT_TYPES } from '#shared/constants';
import type { WebhookEndpoint } from '#shared/schemas/webhook';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import {
  useAddWebhook,
  useDeleteWebhook,
  useReplayWebhook,
  useTestWebhook,
  useUpdateWebhook,
  useWebhookLog,
  useWebhookSecret,
  useWebhooks,
} from '../api/webhooks.ts';

/**
 * Settings → Integrations → Webhooks (owners): endpoints, the events each gets, its secret
 * (shown on demand, copied, rotated), pause, Send test, the delivery log with Replay.
 */
export function WebhooksSection() {
  const endpoints = useWebhooks();
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <section aria-labelledby="webhooks-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="space-y-1">
        <h2 id="webhooks-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900">
          Webhooks
        </h2>
        <p className="text-sm text-slate-600">
          Signed HTTPS requests (Standard Webhooks) sent to your systems when leads, appointments, replies and tasks change.
        </p>
      </div>
      <AddEndpointForm />
      {endpoints.isError && <p className="text-sm text-red-700">The webhooks could not be loaded.</p>}
      <ul className="space-y-3">
        {endpoints.data?.map((endpoint) => (
          <EndpointItem key={endpoint.id} endpoint={endpoint} heading={heading} />
        ))}
      </ul>
    </section>
  );
}

function AddEndpointForm() {
  const add = useAddWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['lead.created']);
  const [error, setError] = useState<string>();
  const [newSecret, setNewSecret] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (add.isPending) return;
    setError(undefined);
    add.mutate(
      { url, events: events as never },
      {
        onSuccess: (created) => {
          setUrl('');
          setNewSecret(created.secret);
          toast.success('Webhook added');
        },
        onError: (err) => setError(err instanceof ApiError ? (err.fields?.url ?? err.fields?.events ?? err.message) : 'Could not add it'),
      },
    );
  };
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Add a webhook">
      <TextField
        label="Endpoint URL"
        type="url"
        inputMode="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={error}
        required
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Events</legend>
        <div className="mt-1 grid grid-cols-1 gap-1 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((t) => t !== type))}
              />
              <code>{type}</code>
            </label>
          ))}
        </div>
      </fieldset>
      {/* Not disabled while it saves: a disabled button loses the keyboard focus (to the page's body). */}
      <Button type="submit" variant="primary" disabled={events.length === 0}>
        Add webhook
      </Button>
      {newSecret && <SecretBox label="Its signing secret" secret={newSecret} />}
    </form>
  );
}

function SecretBox({ label, secret }: { label: string; secret: string }) {
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-slate-800">{label}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 break-all rounded bg-slate-100 px-2 py-1 text-xs">{secret}</code>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => void navigator.clipboard?.writeText(secret).then(() => toast.success('Secret copied'))}
        >
          Copy
        </Button>
      </div>
    </div>
  );
}

function EndpointItem({ endpoint, heading }: { endpoint: WebhookEndpoint; heading: RefObject<HTMLHeadingElement | null> }) {
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const test = useTestWebhook();
  const [showSecret, setShowSecret] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Cancelled (or refused), focus goes back to Delete; deleted, Delete is gone with the endpoint: focus goes to the section's heading.
  const afterDelete = useRef<HTMLElement | null>(null);
  const secret = useWebhookSecret(endpoint.id, showSecret);
  const failed = () => toast.error('That did not work. Please try again.');
  return (
    <li className="space-y-2 rounded border border-slate-200 p-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="min-w-0 break-all font-medium text-slate-900">{endpoint.url}</p>
        <span className={endpoint.paused ? 'text-sm text-amber-700' : 'text-sm text-emerald-700'}>
          {endpoint.paused ? `Paused${endpoint.paused_reason ? `: ${endpoint.paused_reason}` : ''}` : 'Active'}
        </span>
      </div>
      <p className="text-xs text-slate-600">{endpoint.events.join(', ')}</p>
      {endpoint.failing_since && !endpoint.paused && (
        <p className="text-xs text-amber-700">Failing since {new Date(endpoint.failing_since).toLocaleString()}</p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" aria-expanded={showSecret} onClick={() => setShowSecret(!showSecret)}>
          {showSecret ? 'Hide secret' : 'Show secret'}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={update.isPending}
          onClick={() =>
            update.mutate(
              { id: endpoint.id, change: { rotate_secret: true } },
              { onSuccess: () => toast.success('New secret: the old one keeps signing for 24 hours'), onError: failed },
            )
          }
        >
          Rotate secret
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={update.isPending}
          onClick={() => update.mutate({ id: endpoint.id, change: { paused: !endpoint.paused } }, { onError: failed })}
        >
          {endpoint.paused ? 'Resume' : 'Pause'}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(endpoint.id, {
              onSuccess: (r) =>
                r.delivered
                  ? toast.success(`Test delivered (HTTP ${r.http_status}, ${r.duration_ms} ms)`)
                  : toast.error(`Test failed: ${r.error}`),
              onError: failed,
            })
          }
        >
          Send test
        </Button>
        <Button size="sm" variant="secondary" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? 'Hide log' : 'Delivery log'}
        </Button>
        <Button
          size="sm"
          variant="danger"
          onClick={() => {
            afterDelete.current = null;
            setConfirming(true);
          }}
        >
          Delete
        </Button>
      </div>
      {showSecret && secret.data && (
        <div className="space-y-2">
          <SecretBox label="Signing secret" secret={secret.data.secret} />
          {secret.data.previous_secret && (
            <SecretBox
              label={`Previous secret (also signs until ${new Date(secret.data.previous_secret_until ?? '').toLocaleString()})`}
              secret={secret.data.previous_secret}
            />
          )}
        </div>
      )}
      {showLog && <DeliveryLog endpointId={endpoint.id} />}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this webhook?"
        description={`Nothing more is sent to ${endpoint.url}; its queue and log go too.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        returnFocusRef={afterDelete}
        onConfirm={() => {
          // Set before: once deleted, this item (and the dialog) may unmount before mutate's callbacks, which then never run.
          afterDelete.current = heading.current;
          remove.mutate(endpoint.id, {
            onSuccess: () => setConfirming(false),
            onError: () => {
              afterDelete.current = null;
              failed();
            },
          });
        }}
      />
    </li>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const log = useWebhookLog(endpointId, true);
  const replay = useReplayWebhook();
  if (log.isPending) return <p className="text-sm text-slate-600">Loading…</p>;
  if (!log.data?.length) return <p className="text-sm text-slate-600">Nothing sent in the last 30 days.</p>;
  return (
    <ul aria-label="Delivery log" className="divide-y divide-slate-100 text-sm">
      {log.data.map((a) => (
        <li key={a.id} className="space-y-1 py-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span>
              <code>{a.event_type}</code> · {new Date(a.at).toLocaleString()} · {a.http_status ?? 'no answer'} · {a.duration_ms} ms ·{' '}
              {a.delivery_status}
            </span>
            <Button
              size="sm"
              variant="secondary"
              disabled={replay.isPending}
              onClick={() =>
                replay.mutate(
                  { id: endpointId, deliveryId: a.delivery_id },
                  { onSuccess: () => toast.success('Queued again'), onError: () => toast.error('It cannot be sent again.') },
                )
              }
            >
              Replay
            </Button>
          </div>
          {/* A non-2xx answer has both: the error (HTTP 500) and what the receiver said, which tells why. */}
          {(a.error || a.response_body) && (
            <pre className="max-h-24 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-xs text-slate-700">
              {[a.error, a.response_body].filter(Boolean).join('\n')}
            </pre>
          )}
        </li>
      ))}
    </ul>
  );
}
