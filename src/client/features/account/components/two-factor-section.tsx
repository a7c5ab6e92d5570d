import { useState, type FormEvent } from 'react';
import type { TwoFactorSetup } from '#shared/schemas/two-factor';
import { Copy, Download } from '#client/components/icons.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useAuth } from '#client/lib/auth.tsx';
import {
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useNewRecoveryCodes,
  useStartTwoFactor,
  useTwoFactorStatus,
} from '../api/two-factor-setup.ts';
import { Card } from './card.tsx';
import { Button } from '#client/components/ui/button.tsx';

const messageOf = (err: unknown, fallback: string) =>
  err instanceof ApiError ? ((err.fields ? Object.values(err.fields)[0] : undefined) ?? err.message) : fallback;

/** The account page's two-factor section: status, set-up with a QR code, recovery codes (shown once), turn off. */
export function TwoFactorSection() {
  const { user, refresh } = useAuth();
  const status = useTwoFactorStatus();
  const [setup, setSetup] = useState<TwoFactorSetup>();
  const [codes, setCodes] = useState<string[]>();

  const description = 'A code from an authenticator app (1Password, Google Authenticator, Authy…) after your password.';
  if (!status.data) {
    return (
      <Card title="Two-factor authentication" description={description}>
        {status.isError ? (
          <p className="mt-4 text-sm text-slate-600">Two-factor could not be loaded.</p>
        ) : (
          <Spinner className="py-8" label="Loading two-factor..." />
        )}
      </Card>
    );
  }
  const { enabled, recovery_codes_left, required, calendar_feed_paused } = status.data;
  return (
    <Card title="Two-factor authentication" description={description}>
      {user?.must_set_up_two_factor ? (
        <p role="alert" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          Your team requires two-factor authentication. Set it up here to open the rest of the dashboard.
          {calendar_feed_paused ? ' Your calendar feed is paused until then: calendar apps subscribed to it get no appointments.' : null}
        </p>
      ) : null}
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />
      ) : enabled ? (
        <Enabled left={recovery_codes_left} required={required} onCodes={setCodes} />
      ) : setup ? (
        <ConfirmSetup
          setup={setup}
          onCancel={() => setSetup(undefined)}
          onEnabled={(fresh) => {
            setSetup(undefined);
            setCodes(fresh);
            void refresh();
          }}
        />
      ) : (
        <StartSetup onStarted={setSetup} />
      )}
    </Card>
  );
}

function StartSetup({ onStarted }: { onStarted: (setup: TwoFactorSetup) => void }) {
  const start = useStartTwoFactor();
  return (
    <div className="mt-4 space-y-3">
      <p className="text-sm text-slate-700">
        Two-factor is <strong>off</strong>.
      </p>
      <Button
        disabled={start.isPending}
        onClick={() =>
          start.mutate(undefined, { onSuccess: onStarted, onError: (err) => toast.error(messageOf(err, 'Failed to start the set-up')) })
        }
      >
        {start.isPending ? 'Starting...' : 'Set up two-factor'}
      </Button>
    </div>
  );
}

function ConfirmSetup({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: TwoFactorSetup;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const confirm = useConfirmTwoFactor();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(typed)) return setError('Enter the 6-digit code from your app');
    setError(undefined);
    confirm.mutate(typed, {
      onSuccess: (r) => onEnabled(r.recovery_codes),
      onError: (err) => setError(messageOf(err, 'Failed to turn on two-factor')),
    });
  };
  return (
    <div className="mt-4 grid gap-6 md:grid-cols-[auto_1fr]">
      <img
        src={setup.qr_code}
        alt="QR code to scan with your authenticator app"
        width={192}
        height={192}
        className="size-48 rounded border border-slate-200"
      />
      <div className="min-w-0 space-y-3 text-sm text-slate-700">
        <p>1. Scan the QR code with your authenticator app, or type this key into it:</p>
        <p>
          <code data-testid="two-factor-secret" className="rounded bg-slate-100 px-2 py-1 font-mono text-sm break-all text-slate-900">
            {setup.secret}
          </code>
        </p>
        <p>2. Enter the 6-digit code the app shows.</p>
        <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={submit} noValidate>
          <TextField
            label="Code from the app"
            name="two-factor-code"
            autoComplete="one-time-code"
            inputMode="numeric"
            value={code}
            error={error}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <Button type="submit" disabled={confirm.isPending} className="sm:mt-6">
            {confirm.isPending ? 'Checking...' : 'Turn on'}
          </Button>
        </form>
        <button type="button" onClick={onCancel} className="text-slate-600 underline-offset-2 hover:underline">
          Cancel
        </button>
      </div>
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Recovery codes copied.');
    } catch {
      toast.error('Could not copy: select the codes and copy them.');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="mt-4 space-y-3" role="region" aria-label="Your recovery codes">
      <p className="text-sm font-medium text-slate-900">
        Two-factor is on. Save these recovery codes somewhere safe: they are shown only this once.
      </p>
      <p className="text-sm text-slate-600">Each code signs you in once if you lose your phone.</p>
      <ul
        className="grid grid-cols-2 gap-2 rounded-md border border-slate-200 bg-slate-50 p-4 font-mono text-sm sm:grid-cols-5"
        data-testid="recovery-codes"
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => void copy()} variant="secondary" size="sm">
          <Copy className="size-4" aria-hidden="true" /> Copy
        </Button>
        <Button onClick={download} variant="secondary" size="sm">
          <Download className="size-4" aria-hidden="true" /> Download
        </Button>
        <Button onClick={onDone} size="sm">
          I saved them
        </Button>
      </div>
    </div>
  );
}

function Enabled({ left, required, onCodes }: { left: number; required: boolean; onCodes: (codes: string[]) => void }) {
  const regenerate = useNewRecoveryCodes();
  const disable = useDisableTwoFactor();
  const [action, setAction] = useState<'codes' | 'off'>();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password) return setError('Current password is required');
    setError(undefined);
    const done = () => {
      setAction(undefined);
      setPassword('');
    };
    if (action === 'codes')
      regenerate.mutate(password, {
        onSuccess: (r) => (done(), onCodes(r.recovery_codes)),
        onError: (err) => setError(messageOf(err, 'Failed to make new codes')),
      });
    else
      disable.mutate(password, {
        onSuccess: () => (done(), toast.success('Two-factor is off.')),
        onError: (err) => setError(messageOf(err, 'Failed to turn off two-factor')),
      });
  };
  return (
    <div className="mt-4 space-y-3 text-sm text-slate-700">
      <p>
        Two-factor is <strong>on</strong>. {left} of 10 recovery codes left.
      </p>
      {action ? (
        <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={submit} noValidate>
          <TextField
            label="Current password"
            name="two-factor-password"
            type="password"
            autoComplete="current-password"
            value={password}
            error={error}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" className="sm:mt-6">
            {action === 'codes' ? 'Make new codes' : 'Turn off'}
          </Button>
          <button type="button" onClick={() => setAction(undefined)} className="text-slate-600 underline-offset-2 hover:underline sm:mt-8">
            Cancel
          </button>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setAction('codes')} variant="secondary" size="sm">
            New recovery codes
          </Button>
          {required ? (
            <span className="self-center text-slate-500">Your team requires two-factor, so it stays on.</span>
          ) : (
            <button
              type="button"
              onClick={() => setAction('off')}
              className="rounded-md border border-red-300 px-3 py-2 font-medium text-red-700 hover:bg-red-50"
            >
              Turn off two-factor
            </button>
          )}
        </div>
      )}
    </div>
  );
}
