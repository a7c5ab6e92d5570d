import { useRef, useState, type FormEvent } from 'react';
import { LOGIN_RULES } from '#shared/rules/login';
import { checkText } from '#shared/rules/text';
import { ROLE_LABEL, ROLES, type Role } from '#shared/schemas/auth';
import type { Invite, InviteCreated, TeamMember } from '#shared/schemas/team';
import { Copy } from '#client/components/icons.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { useChangeRole, useInvite, useReassignLeads, useRemoveMember, useRevokeInvite, useSetActive, useTeam } from './api/team.ts';
import { SettingsNav } from './settings-nav.tsx';
import { Button } from '#client/components/ui/button.tsx';

const failed = (fallback: string) => (err: unknown) => toast.error(err instanceof ApiError ? err.message : fallback);

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
        <SelectField label="Role" name="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)} className="sm:w-40">
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
        <button type="button" onClick={() => void copy()} className="inline-flex items-center justify-center gap-2 rounded-md border border-blue-300 bg-white px-3 py-2 font-medium text-blue-800 hover:bg-blue-100">
          <Copy className="h-4 w-4" aria-hidden="true" /> Copy link
        </button>
      </div>
    </div>
  );
}

type Pending = { kind: 'deactivate' | 'remove' | 'reassign'; member: TeamMember };

function PeopleList({ members }: { members: TeamMember[] }) {
  const { user: me, refresh } = useAuth();
  const changeRole = useChangeRole();
  const setActive = useSetActive();
  const remove = useRemoveMember();
  const reassign = useReassignLeads();
  const [pending, setPending] = useState<Pending>();
  const [reassignTo, setReassignTo] = useState('');
  const close = () => setPending(undefined);
  const active = members.filter((m) => !m.deactivated_at);

  const onRole = (member: TeamMember, role: Role) =>
    changeRole.mutate(
      { id: member.id, role },
      {
        onSuccess: () => {
          toast.success(`${member.display_name} is now ${ROLE_LABEL[role]}.`);
          // Stepping down to staff closes this page: the session says so.
          if (member.id === me?.id) void refresh();
        },
        onError: failed('Failed to change the role'),
      },
    );

  const confirm = () => {
    if (!pending) return;
    const { kind, member } = pending;
    if (kind === 'deactivate') {
      setActive.mutate({ id: member.id, active: false }, { onSuccess: () => (toast.success(`${member.display_name} is deactivated.`), close()), onError: failed('Failed to deactivate') });
    } else if (kind === 'remove') {
      remove.mutate(member.id, { onSuccess: () => (toast.success(`${member.display_name} is removed.`), close()), onError: failed('Failed to remove') });
    } else {
      reassign.mutate(
        { id: member.id, to: reassignTo || null },
        { onSuccess: ({ moved }) => (toast.success(`${moved} ${moved === 1 ? 'lead' : 'leads'} reassigned.`), close()), onError: failed('Failed to reassign the leads') },
      );
    }
  };

  return (
    <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <h2 className="border-b border-slate-200 px-5 py-4 text-lg font-semibold text-slate-900">People</h2>
      <ul className="divide-y divide-slate-200">
        {members.map((member) => {
          const isMe = member.id === me?.id;
          return (
            <li key={member.id} className="flex flex-col gap-3 px-5 py-4 lg:flex-row lg:items-center lg:justify-between" data-testid="team-member">
              <div className="min-w-0">
                <p className="font-medium text-slate-900">
                  <span className="break-words">{member.display_name}</span>
                  {isMe ? <span className="ml-2 inline-block rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-slate-700">You</span> : null}
                  {member.deactivated_at ? (
                    <span className="ml-2 inline-block rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-amber-900">Deactivated</span>
                  ) : null}
                </p>
                <p className="text-sm break-all text-slate-700">
                  {member.email}
                  {member.phone ? <span className="break-normal"> · {member.phone}</span> : null}
                </p>
                <p className="mt-1 text-sm text-slate-600">
                  Last sign-in: {member.last_sign_in_at ? <RelativeTime iso={member.last_sign_in_at} /> : 'never'} · Two-factor: {member.two_factor ? 'on' : 'off'} ·{' '}
                  {member.owned_leads} {member.owned_leads === 1 ? 'lead' : 'leads'}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <label className="sr-only" htmlFor={`role-${member.id}`}>
                  Role of {member.email}
                </label>
                <select
                  id={`role-${member.id}`}
                  value={member.role}
                  disabled={changeRole.isPending}
                  onChange={(e) => onRole(member, e.currentTarget.value as Role)}
                  className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {ROLE_LABEL[r]}
                    </option>
                  ))}
                </select>
                {member.owned_leads > 0 ? (
                  <RowButton label={`Reassign leads of ${member.email}`} onClick={() => (setReassignTo(''), setPending({ kind: 'reassign', member }))}>
                    Reassign leads
                  </RowButton>
                ) : null}
                {isMe ? null : member.deactivated_at ? (
                  <RowButton
                    label={`Reactivate ${member.email}`}
                    onClick={() => setActive.mutate({ id: member.id, active: true }, { onSuccess: () => toast.success(`${member.display_name} can sign in again.`), onError: failed('Failed to reactivate') })}
                  >
                    Reactivate
                  </RowButton>
                ) : (
                  <RowButton label={`Deactivate ${member.email}`} onClick={() => setPending({ kind: 'deactivate', member })}>
                    Deactivate
                  </RowButton>
                )}
                {isMe ? null : (
                  <RowButton label={`Remove ${member.email}`} danger onClick={() => setPending({ kind: 'remove', member })}>
                    Remove
                  </RowButton>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={pending?.kind === 'deactivate'}
        onOpenChange={(open) => !open && close()}
        title="Deactivate this account?"
        description={`${pending?.member.display_name ?? ''} is signed out everywhere at once and cannot sign in until reactivated. Their leads keep them as owner until you reassign them.`}
        confirmLabel="Deactivate"
        busy={setActive.isPending}
        onConfirm={confirm}
      />
      <ConfirmDialog
        open={pending?.kind === 'remove'}
        onOpenChange={(open) => !open && close()}
        title="Remove this account?"
        description={`${pending?.member.display_name ?? ''} is removed for good and signed out at once. Their leads and notes stay, without an owner or author. This cannot be undone.`}
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={confirm}
      />
      <ConfirmDialog
        open={pending?.kind === 'reassign'}
        onOpenChange={(open) => !open && close()}
        title="Reassign their leads"
        description={`Every lead ${pending?.member.display_name ?? ''} owns (${pending?.member.owned_leads ?? 0}) goes to the person you choose.`}
        confirmLabel="Reassign"
        busy={reassign.isPending}
        onConfirm={confirm}
      >
        <SelectField label="New owner" className="mt-4" value={reassignTo} onChange={(e) => setReassignTo(e.currentTarget.value)}>
          <option value="">Nobody (unassigned)</option>
          {active
            .filter((m) => m.id !== pending?.member.id)
            .map((m) => (
              <option key={m.id} value={m.id}>
                {m.display_name} ({m.email})
              </option>
            ))}
        </SelectField>
      </ConfirmDialog>
    </div>
  );
}

function RowButton({ label, danger = false, onClick, children }: { label: string; danger?: boolean; onClick: () => void; children: string }) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className={`rounded-md border px-3 py-1.5 text-sm font-medium ${danger ? 'border-red-300 text-red-700 hover:bg-red-50' : 'border-slate-300 text-slate-700 hover:bg-slate-50'}`}
    >
      {children}
    </button>
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
            <li key={invite.id} className="flex flex-col gap-2 px-5 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid="team-invite">
              <div className="min-w-0">
                <p className="font-medium break-all text-slate-900">{invite.email}</p>
                <p className="mt-1 text-sm text-slate-600">
                  {ROLE_LABEL[invite.role]} · invited by {invite.invited_by ?? 'a former member'} · expires <RelativeTime iso={invite.expires_at} />
                </p>
              </div>
              <RowButton
                label={`Withdraw the invitation to ${invite.email}`}
                onClick={() => revoke.mutate(invite.id, { onSuccess: () => toast.success('Invitation withdrawn.'), onError: failed('Failed to withdraw the invitation') })}
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
