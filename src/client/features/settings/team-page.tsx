import { ROLES, ROLE_LABEL, type Role } from '#shared/constants';
import { useRef, useState, type FormEvent } from 'react';
import { LOGIN_RULES } from '#shared/rules/login';
import { checkText } from '#shared/rules/text-checks';
import type { Invite, InviteCreated } from '#shared/schemas/team';
import { Copy } from '#client/components/icons.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useInvite, useRevokeInvite, useTeam } from './api/manage-team.ts';
import { PeopleList } from './components/people-list.tsx';
import { RowButton } from './components/row-button.tsx';
import { SettingsNav } from './settings-nav.tsx';
import { failed } from './team-errors.ts';
import { Button } from '#client/components/ui/button.tsx';

/** /dashboard/settings/team (owners): the people on the team, invitations, roles, and who may sign in. */
export function TeamPage() {
  const team = useTeam();
  return (
    <section className="space-y-6">
      <SettingsNav />
      <InviteForm />
      {team.data ? (
        <>
          <PeopleList members={team.data.members} />
          <PendingInvites invites={team.data.invites} />
        </>
      ) : team.isError ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">The team could not be loaded.</p>
      ) : (
        <Spinner className="py-16" label="Loading the team..." />
      )}
    </section>
  );
}

function InviteForm() {
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('staff');
  const [error, setError] = useState<string>();
  const [made, setMade] = useState<InviteCreated>();
  const emailInput = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkText(email, LOGIN_RULES.email);
    if (!checked.ok) {
      setError(checked.error);
      emailInput.current?.focus();
      return;
    }
    setError(undefined);
    invite.mutate(
      { email: checked.value!, role },
      {
        onSuccess: (created) => {
          setMade(created);
          setEmail('');
          toast.success(created.emailed ? `Invitation sent to ${created.invite.email}.` : `Invitation ready for ${created.invite.email}.`);
        },
        onError: (err) => {
          if (err instanceof ApiError && err.fields?.email) setError(err.fields.email);
          else failed('Failed to send the invitation')(err);
        },
      },
    );
  };

  return (
    <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-lg font-semibold text-slate-900">Invite someone</h2>
      <p className="mt-1 text-sm text-slate-600">They get a link to choose a password. It works once, for 72 hours.</p>
      <form className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start" onSubmit={submit} noValidate>
        <TextField
          ref={emailInput}
          className="sm:flex-1"
          label="Email"
          name="invite-email"
          type="email"
          autoComplete="off"
          value={email}
          error={error}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <SelectField
          label="Role"
          name="invite-role"
          value={role}
          onChange={(e) => setRole(e.currentTarget.value as Role)}
          className="sm:w-40"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABEL[r]}
            </option>
          ))}
        </SelectField>
        <Button type="submit" disabled={invite.isPending} className="sm:mt-6">
          {invite.isPending ? 'Sending...' : 'Send invitation'}
        </Button>
      </form>
      {made ? <InviteLink created={made} /> : null}
    </div>
  );
}

/** The link just made: to send by hand when email is off, or to copy anyway. */
function InviteLink({ created }: { created: InviteCreated }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.link);
      toast.success('Link copied.');
    } catch {
      toast.error('Could not copy: select the link and copy it.');
    }
  };
  return (
    <div className="mt-4 rounded-md border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950" role="status">
      <p>
        {created.emailed
          ? `We emailed the invitation to ${created.invite.email}. You can also send them this link yourself:`
          : `Email is off, so send this link to ${created.invite.email} yourself. It works once, for 72 hours:`}
      </p>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-center">
        <input
          readOnly
          aria-label="Invitation link"
          value={created.link}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border border-blue-200 bg-white px-3 py-2 font-mono text-xs text-slate-800"
        />
        <button
          type="button"
          onClick={() => void copy()}
          className="inline-flex items-center justify-center gap-2 rounded-md border border-blue-300 bg-white px-3 py-2 font-medium text-blue-800 hover:bg-blue-100"
        >
          <Copy className="h-4 w-4" aria-hidden="true" /> Copy link
        </button>
      </div>
    </div>
  );
}

function PendingInvites({ invites }: { invites: Invite[] }) {
  const revoke = useRevokeInvite();
  return (
    <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <h2 className="border-b border-slate-200 px-5 py-4 text-lg font-semibold text-slate-900">Pending invitations</h2>
      {invites.length === 0 ? (
        <p className="px-5 py-6 text-sm text-slate-600">No invitations are waiting.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {invites.map((invite) => (
            <li
              key={invite.id}
              className="flex flex-col gap-2 px-5 py-4 sm:flex-row sm:items-center sm:justify-between"
              data-testid="team-invite"
            >
              <div className="min-w-0">
                <p className="font-medium break-all text-slate-900">{invite.email}</p>
                <p className="mt-1 text-sm text-slate-600">
                  {ROLE_LABEL[invite.role]} · invited by {invite.invited_by ?? 'a former member'} · expires{' '}
                  <RelativeTime iso={invite.expires_at} />
                </p>
              </div>
              <RowButton
                label={`Withdraw the invitation to ${invite.email}`}
                onClick={() =>
                  revoke.mutate(invite.id, {
                    onSuccess: () => toast.success('Invitation withdrawn.'),
                    onError: failed('Failed to withdraw the invitation'),
                  })
                }
              >
                Withdraw
              </RowButton>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
