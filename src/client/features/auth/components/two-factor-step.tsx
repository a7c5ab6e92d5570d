import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '#client/lib/api-client.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { AuthCard } from './auth-card.tsx';
import { Button } from '#client/components/ui/button.tsx';

const SIGN_IN_EXPIRED = 'Your sign-in expired. Enter your email and password again.';

/** The second step of a sign-in with two-factor: a code from the app (or a recovery code), and whether to remember this device. */
export function TwoFactorStep({ onBack, onDone }: { onBack: () => void; onDone: () => void }) {
  const { completeTwoFactor } = useAuth();
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const typed = value.trim();
    const problem = !typed
      ? recovery
        ? 'Recovery code is required'
        : 'Code is required'
      : !recovery && !/^\d{6}$/.test(typed.replace(/\s/g, ''))
        ? 'Enter the 6-digit code from your app'
        : undefined;
    if (problem) {
      setError(problem);
      input.current?.focus();
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await completeTwoFactor(
        recovery ? { recovery_code: typed, remember_device: remember } : { code: typed.replace(/\s/g, ''), remember_device: remember },
      );
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.message === SIGN_IN_EXPIRED) {
        toast.error(SIGN_IN_EXPIRED);
        onBack();
      } else if (err instanceof ApiError) {
        setError(err.message);
        input.current?.focus();
      } else {
        console.error('Two-factor sign-in failed', err);
        toast.error('An unexpected error occurred');
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Two-factor authentication"
      subtitle={
        recovery ? 'Enter one of the recovery codes you saved. Each works once.' : 'Enter the 6-digit code from your authenticator app.'
      }
    >
      <form className="mt-8 space-y-5" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          ref={input}
          key={recovery ? 'recovery' : 'code'}
          label={recovery ? 'Recovery code' : 'Code'}
          name={recovery ? 'recovery-code' : 'code'}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          inputMode={recovery ? 'text' : 'numeric'}
          autoFocus
          error={error}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
        />
        <label className="flex items-center gap-3 text-sm text-slate-700">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300"
            checked={remember}
            onChange={(e) => setRemember(e.currentTarget.checked)}
          />
          Remember this device for 30 days
        </label>
        <Button type="submit" disabled={busy} size="block">
          {busy ? 'Verifying...' : 'Verify'}
        </Button>
      </form>
      <div className="mt-4 flex flex-wrap justify-between gap-2 text-sm">
        <button
          type="button"
          className="text-blue-700 underline-offset-2 hover:underline"
          onClick={() => {
            setRecovery(!recovery);
            setValue('');
            setError(undefined);
          }}
        >
          {recovery ? 'Use a code from the app' : 'Use a recovery code'}
        </button>
        <button type="button" className="text-slate-600 underline-offset-2 hover:underline" onClick={onBack}>
          Back to sign-in
        </button>
      </div>
    </AuthCard>
  );
}
