import { ROLE_LABEL } from '#shared/constants';
import { useState } from 'react';
import { LOGIN_RULES } from '#shared/rules/login';
import { checkNewPassword } from '#shared/rules/new-password';
import { checkProfile } from '#shared/rules/profile';
import { checkText } from '#shared/rules/text-checks';
import type { ChangeEmail, ChangePassword, PasswordChange } from '#shared/schemas/account';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { useCheckedForm, type FormCheck } from '#client/lib/use-checked-form.ts';
import {
  useChangeEmail,
  useChangePassword,
  useChangeProfile,
  useRevokeMyApiKeys,
  useEndOtherSessions,
  useEndSession,
  useSessions,
} from './api/profile-and-sessions.ts';
import { Card } from './components/card.tsx';
import { EmailPreferenceFields } from './components/email-preference-fields.tsx';
import { TwoFactorSection } from './components/two-factor-section.tsx';
import { WorkingHoursSection } from './components/working-hours-section.tsx';
import { CalendarsSection } from './components/calendars-section.tsx';
import { SignatureSection } from './components/signature-section.tsx';
import { deviceName } from '#shared/device-name';
import { Button } from '#client/components/ui/button.tsx';

type Errors = Record<string, string | undefined>;

/** What a refused change says: its field messages, or a toast. */
function fieldErrorsOf(err: unknown, fallback: string): Errors {
  if (err instanceof ApiError && err.fields) return err.fields;
  toast.error(err instanceof ApiError ? err.message : fallback);
  return {};
}

const endedOthers = (n: number) => (n === 0 ? '' : ` ${n} other ${n === 1 ? 'session was' : 'sessions were'} signed out.`);

/** /dashboard/account: one's own name and phone, email, password, two-factor, sessions and email notifications. */
export function AccountPage() {
  const { user } = useAuth();
  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Your account</h1>
        <p className="mt-1 text-sm break-words text-slate-600">
          Signed in as {user?.display_name} ({user?.email}), {user ? ROLE_LABEL[user.role] : ''}.
        </p>
      </div>
      {user ? <ProfileForm key={`${user.display_name}\n${user.phone ?? ''}`} name={user.display_name} phone={user.phone} /> : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <EmailForm />
        <PasswordForm />
      </div>
      <div id="two-factor">
        <TwoFactorSection />
      </div>
      <WorkingHoursSection />
      <CalendarsSection />
      <SessionsList />
      <SignatureSection />
      <Card title="Email notifications" description="What we email you about. Everything also shows in the bell.">
        <EmailPreferenceFields className="mt-4" />
      </Card>
    </section>
  );
}

/** One's name (how the team sees them: as a lead's owner, a note's author, in the audit log) and phone. */
function ProfileForm({ name, phone }: { name: string; phone: string | null }) {
  const { refresh } = useAuth();
  const change = useChangeProfile();
  const form = useCheckedForm({ display_name: name, phone: phone ?? '' }, checkProfile);

  const submit = form.handleSubmit(async (checked) => {
    try {
      await change.mutateAsync({ display_name: checked.display_name, phone: checked.phone || null });
    } catch (err) {
      return form.setErrors(fieldErrorsOf(err, 'Failed to save your name and phone'));
    }
    toast.success('Your name and phone are saved.');
    void refresh();
  });

  return (
    <Card
      title="Name and phone"
      description="How the team sees you: on the leads you own, your notes, the lead timelines and the audit log."
    >
      <form className="mt-4 grid gap-4 sm:grid-cols-2" onSubmit={(event) => void submit(event)} noValidate>
        <TextField label="Name" autoComplete="name" {...form.field('display_name')} name="display-name" />
        <TextField label="Phone (optional)" type="tel" autoComplete="tel" {...form.field('phone')} />
        <div className="sm:col-span-2">
          <SubmitButton busy={form.submitting} label="Save name and phone" busyLabel="Saving..." />
        </div>
      </form>
    </Card>
  );
}

const currentPasswordRequired = (current_password: string) => (current_password ? undefined : 'Current password is required');

function checkEmailChange(values: { email: string; current_password: string }): FormCheck<typeof values, ChangeEmail> {
  const email = checkText(values.email, LOGIN_RULES.email);
  const errors = { email: email.ok ? undefined : email.error, current_password: currentPasswordRequired(values.current_password) };
  if (errors.email || errors.current_password) return { ok: false, errors };
  return { ok: true, value: { email: email.ok ? email.value! : '', current_password: values.current_password } };
}

function checkPasswordChange(values: ChangePassword): FormCheck<ChangePassword, ChangePassword> {
  const chosen = checkNewPassword(values);
  const errors = { current_password: currentPasswordRequired(values.current_password), ...(chosen.ok ? {} : chosen.errors) };
  if (Object.values(errors).some(Boolean)) return { ok: false, errors };
  return { ok: true, value: values };
}

function EmailForm() {
  const { refresh } = useAuth();
  const change = useChangeEmail();
  const form = useCheckedForm({ email: '', current_password: '' }, checkEmailChange);

  const submit = form.handleSubmit(async (body) => {
    try {
      const result = await change.mutateAsync(body);
      toast.success(`Your email is now ${result.email}.${endedOthers(result.other_sessions_ended)}`);
    } catch (err) {
      return form.setErrors(fieldErrorsOf(err, 'Failed to change your email'));
    }
    form.reset({ email: '', current_password: '' });
    void refresh();
  });

  return (
    <Card title="Email" description="The address you sign in with and get notifications at.">
      <form className="mt-4 space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <TextField label="New email" type="email" autoComplete="email" {...form.field('email')} name="new-email" />
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...form.field('current_password')}
          name="email-current-password"
        />
        <SubmitButton busy={form.submitting} label="Change email" busyLabel="Saving..." />
      </form>
    </Card>
  );
}

function PasswordForm() {
  const change = useChangePassword();
  const form = useCheckedForm({ current_password: '', password: '', confirm: '' }, checkPasswordChange);
  // The API keys the change left working, until they are revoked or the notice is dismissed.
  const [keysLeft, setKeysLeft] = useState<PasswordChange['api_keys']>([]);

  const submit = form.handleSubmit(async (body) => {
    try {
      const result = await change.mutateAsync(body);
      toast.success(`Your password is changed.${endedOthers(result.other_sessions_ended)}`);
      setKeysLeft(result.api_keys);
    } catch (err) {
      return form.setErrors(fieldErrorsOf(err, 'Failed to change your password'));
    }
    form.reset({ current_password: '', password: '', confirm: '' });
  });

  return (
    <Card
      title="Password"
      description="Changing it signs you out everywhere else, stops your calendar feed URL, and remembered devices ask for a code again."
    >
      <form className="mt-4 space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...form.field('current_password')}
          name="current-password"
        />
        <TextField label="New password" type="password" autoComplete="new-password" {...form.field('password')} name="new-password" />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          {...form.field('confirm')}
          name="confirm-password"
        />
        <SubmitButton busy={form.submitting} label="Change password" busyLabel="Saving..." />
      </form>
      {keysLeft.length > 0 ? <KeysStillWorking keys={keysLeft} onDone={() => setKeysLeft([])} /> : null}
    </Card>
  );
}

/** After a password change: the API keys it did not end, with one click to revoke them all. */
function KeysStillWorking({ keys, onDone }: { keys: PasswordChange['api_keys']; onDone: () => void }) {
  const revoke = useRevokeMyApiKeys();
  const revokeAll = async () => {
    try {
      const { revoked } = await revoke.mutateAsync();
      toast.success(revoked === 1 ? 'Your API key is revoked.' : `Your ${revoked} API keys are revoked.`);
      onDone();
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : 'Failed to revoke your API keys');
    }
  };
  return (
    <section role="note" aria-labelledby="keys-still-working" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm">
      <h3 id="keys-still-working" className="font-medium text-amber-900">
        {keys.length === 1 ? 'Your API key still works' : `Your ${keys.length} API keys still work`}
      </h3>
      <p className="mt-1 text-amber-900">A password change does not end them. If they should stop, revoke them all.</p>
      <ul className="mt-2 list-disc pl-5 text-slate-800">
        {keys.map((k) => (
          <li key={k.id} className="break-all">
            {k.name} <span className="font-mono text-xs text-slate-600">({k.prefix}…)</span>
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="button" variant="danger" disabled={revoke.isPending} onClick={() => void revokeAll()}>
          {revoke.isPending ? 'Revoking...' : keys.length === 1 ? 'Revoke it' : 'Revoke all of them'}
        </Button>
        <Button type="button" variant="secondary" onClick={onDone}>
          Keep them
        </Button>
      </div>
    </section>
  );
}

function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <Button type="submit" disabled={busy}>
      {busy ? busyLabel : label}
    </Button>
  );
}

function SessionsList() {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [confirming, setConfirming] = useState(false);
  const others = sessions.data?.sessions.filter((s) => !s.current).length ?? 0;

  return (
    <Card title="Where you are signed in" description="Sign out a device you no longer use, or every device but this one.">
      {sessions.data ? (
        <>
          <ul className="mt-4 divide-y divide-slate-200 rounded-md border border-slate-200">
            {sessions.data.sessions.map((s) => (
              <li
                key={s.id}
                className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
                data-testid="account-session"
              >
                <div className="min-w-0 text-sm">
                  <p className="font-medium text-slate-900">
                    {deviceName(s.user_agent)}
                    {s.current ? (
                      <span className="ml-2 inline-block rounded bg-green-100 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-green-900">
                        This device
                      </span>
                    ) : null}
                  </p>
                  <p className="text-slate-600">
                    {s.ip ?? 'Unknown IP'} · last active <RelativeTime iso={s.last_seen_at} /> · signed in{' '}
                    <RelativeTime iso={s.created_at} />
                  </p>
                </div>
                {s.current ? null : (
                  <Button
                    aria-label={`Sign out ${deviceName(s.user_agent)} (${s.ip ?? 'unknown IP'})`}
                    disabled={endOne.isPending}
                    onClick={() =>
                      endOne.mutate(s.id, {
                        onSuccess: () => toast.success('That session is signed out.'),
                        onError: () => toast.error('Failed to sign out that session'),
                      })
                    }
                    variant="secondary"
                    size="sm"
                  >
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
          <button
            type="button"
            disabled={others === 0}
            onClick={() => setConfirming(true)}
            className="mt-4 rounded-md border border-red-300 px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-50"
          >
            Sign out everywhere else
          </button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title="Sign out everywhere else?"
            description="Every other browser and device signed in to your account is signed out at once. This one stays signed in."
            confirmLabel="Sign out others"
            busy={endOthers.isPending}
            onConfirm={() =>
              endOthers.mutate(undefined, {
                onSuccess: ({ ended }) => {
                  toast.success(`${ended} ${ended === 1 ? 'session' : 'sessions'} signed out.`);
                  setConfirming(false);
                },
                onError: () => toast.error('Failed to sign out the other sessions'),
              })
            }
          />
        </>
      ) : sessions.isError ? (
        <p className="mt-4 text-sm text-slate-600">Your sessions could not be loaded.</p>
      ) : (
        <Spinner className="py-8" label="Loading your sessions..." />
      )}
    </Card>
  );
}
