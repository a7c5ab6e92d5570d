import { useEffect, useRef, useState, type FormEvent } from 'react';
import { API_KEY_SCOPES, type ApiKeyScope } from '#shared/constants';
import { checkNewApiKey, type NewApiKeyErrors } from '#shared/rules/api-key-checks';
import type { ApiKey, CreatedApiKey } from '#shared/schemas/api-keys';
import { Copy } from '#client/components/icons.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/manage-api-keys.ts';
import { RowButton } from './row-button.tsx';

/** What each scope lets a key do, in the form's words. */
const SCOPE_TEXT: Record<ApiKeyScope, string> = {
  'leads:read': 'Read leads, their notes, tasks and calls, the board and My tasks',
  'leads:write': 'Create and change leads, notes, tasks and calls (not send email)',
  'appointments:read': 'Read appointments',
  'appointments:write': 'Schedule, change and cancel appointments (the lead is emailed only with email:send)',
  'analytics:read': 'Read analytics',
  'email:send': 'Email the lead when the key schedules, moves or cancels their appointment; each counts toward your hourly email limit',
};

const failed = (fallback: string) => (err: unknown) => toast.error(err instanceof ApiError ? err.message : fallback);

/** Settings → Integrations → API keys: make a key (shown once), see the keys and their last use, revoke one. */
export function ApiKeysSection() {
  const keys = useApiKeys();
  const [made, setMade] = useState<CreatedApiKey>();
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="border-b border-slate-200 px-5 py-4">
        <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900">
          API keys
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Let another program (a form on a partner’s site, Zapier, your own scripts) call this CRM’s API as you, with only the scopes you
          choose. Send the key as <code className="font-mono text-xs">Authorization: Bearer &lt;key&gt;</code>.
        </p>
      </div>
      <NewKeyForm onMade={setMade} />
      {made ? (
        <MadeKey
          created={made}
          onDone={() => {
            setMade(undefined);
            // The box (and its Done button) goes: the keyboard focus stays in the section.
            heading.current?.focus();
          }}
        />
      ) : null}
      {keys.data ? (
        <KeyList keys={keys.data.api_keys} />
      ) : keys.isError ? (
        <p className="px-5 py-6 text-sm text-slate-600">The API keys could not be loaded.</p>
      ) : (
        <Spinner className="py-8" label="Loading API keys..." />
      )}
    </div>
  );
}

function NewKeyForm({ onMade }: { onMade: (created: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [errors, setErrors] = useState<NewApiKeyErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkNewApiKey({ name, scopes });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    create.mutate(checked.value, {
      onSuccess: (created) => {
        onMade(created);
        setName('');
        setScopes([]);
        toast.success(`API key “${created.name}” created.`);
      },
      onError: (err) => {
        if (err instanceof ApiError && err.fields) setErrors({ ...err.fields });
        else failed('Failed to create the API key')(err);
      },
    });
  };
  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((current) => API_KEY_SCOPES.filter((s) => (s === scope ? on : current.includes(s))));
  return (
    <form className="space-y-4 border-b border-slate-200 px-5 py-4" onSubmit={submit} noValidate aria-label="New API key">
      <TextField
        label="Key name"
        name="api-key-name"
        autoComplete="off"
        placeholder="Partner site form"
        value={name}
        error={errors.name}
        onChange={(e) => setName(e.currentTarget.value)}
        className="sm:max-w-sm"
      />
      <fieldset aria-describedby={errors.scopes ? 'api-key-scopes-error' : undefined}>
        <legend className="text-sm font-medium text-slate-700">Scopes</legend>
        <div className="mt-2 space-y-2">
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 size-4 rounded border-slate-300"
                checked={scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.currentTarget.checked)}
              />
              <span>
                <code className="font-mono text-xs font-semibold text-slate-800">{scope}</code>
                <span className="block text-slate-600">{SCOPE_TEXT[scope]}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.scopes ? (
          <p id="api-key-scopes-error" className="mt-1 text-sm text-red-700">
            {errors.scopes}
          </p>
        ) : null}
      </fieldset>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Creating...' : 'Create key'}
      </Button>
    </form>
  );
}

/** The key just made, this once: it is stored hashed and cannot be shown again. */
function MadeKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  // The key takes the focus (selected, ready to copy), rather than leaving it on the form's button.
  const keyField = useRef<HTMLInputElement>(null);
  useEffect(() => keyField.current?.focus(), [created.key]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      toast.success('Key copied.');
    } catch {
      toast.error('Could not copy: select the key and copy it.');
    }
  };
  return (
    <div className="mx-5 my-4 rounded-md border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950" role="status">
      <p className="font-medium">Copy the key “{created.name}” now. It will not be shown again.</p>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-center">
        <input
          ref={keyField}
          readOnly
          aria-label="New API key"
          value={created.key}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border border-blue-200 bg-white px-3 py-2 font-mono text-xs text-slate-800"
        />
        <button
          type="button"
          onClick={() => void copy()}
          className="inline-flex items-center justify-center gap-2 rounded-md border border-blue-300 bg-white px-3 py-2 font-medium text-blue-800 hover:bg-blue-100"
        >
          <Copy className="h-4 w-4" aria-hidden="true" /> Copy key
        </button>
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

function KeyList({ keys }: { keys: ApiKey[] }) {
  const revoke = useRevokeApiKey();
  const [revoking, setRevoking] = useState<ApiKey>();
  const listHeading = useRef<HTMLHeadingElement>(null);
  return (
    <div>
      <h3 ref={listHeading} tabIndex={-1} className="px-5 pt-4 text-base font-semibold text-slate-900">
        Keys
      </h3>
      {keys.length === 0 ? (
        <p className="px-5 py-4 text-sm text-slate-600">No API keys yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {keys.map((key) => (
            <li key={key.id} className="flex flex-col gap-2 px-5 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid="api-key">
              <div className="min-w-0">
                <p className="font-medium break-all text-slate-900">
                  {key.name} <code className="ml-1 font-mono text-xs font-normal text-slate-600">{key.prefix}…</code>
                </p>
                <p className="mt-1 flex flex-wrap gap-1">
                  {key.scopes.map((scope) => (
                    <span key={scope} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
                      {scope}
                    </span>
                  ))}
                </p>
                <p className="mt-1 text-sm text-slate-600">
                  Made by {key.created_by.name} <RelativeTime iso={key.created_at} /> ·{' '}
                  {key.last_used_at ? (
                    <>
                      last used <RelativeTime iso={key.last_used_at} />
                      {key.last_used_ip ? ` from ${key.last_used_ip}` : ''}
                    </>
                  ) : (
                    'never used'
                  )}
                </p>
              </div>
              <RowButton label={`Revoke the API key ${key.name}`} danger onClick={() => setRevoking(key)}>
                Revoke
              </RowButton>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== undefined}
        onOpenChange={(open) => {
          if (!open) setRevoking(undefined);
        }}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        description="Programs using this key stop working at once. This cannot be undone."
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        returnFocusRef={listHeading}
        onConfirm={() => {
          if (!revoking) return;
          revoke.mutate(revoking.id, {
            onSuccess: () => toast.success(`API key “${revoking.name}” revoked.`),
            onError: failed('Failed to revoke the API key'),
            onSettled: () => setRevoking(undefined),
          });
        }}
      />
    </div>
  );
}
