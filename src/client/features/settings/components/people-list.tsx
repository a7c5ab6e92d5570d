import { ROLES, ROLE_LABEL, type Role } from '#shared/constants';
import { useState } from 'react';
import type { TeamMember } from '#shared/schemas/team';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { useChangeRole, useReassignLeads, useRemoveMember, useSetActive } from '../api/manage-team.ts';
import { failed } from '../team-errors.ts';
import { RowButton } from './row-button.tsx';

type Pending = { kind: 'deactivate' | 'remove' | 'reassign'; member: TeamMember };

/** The team page's people: each one's role, when they last signed in, and deactivate, reactivate, remove or reassign their leads. */
export function PeopleList({ members }: { members: TeamMember[] }) {
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
      setActive.mutate(
        { id: member.id, active: false },
        { onSuccess: () => (toast.success(`${member.display_name} is deactivated.`), close()), onError: failed('Failed to deactivate') },
      );
    } else if (kind === 'remove') {
      remove.mutate(member.id, {
        onSuccess: () => (toast.success(`${member.display_name} is removed.`), close()),
        onError: failed('Failed to remove'),
      });
    } else {
      reassign.mutate(
        { id: member.id, to: reassignTo || null },
        {
          onSuccess: ({ moved }) => (toast.success(`${moved} ${moved === 1 ? 'lead' : 'leads'} reassigned.`), close()),
          onError: failed('Failed to reassign the leads'),
        },
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
            <li
              key={member.id}
              className="flex flex-col gap-3 px-5 py-4 lg:flex-row lg:items-center lg:justify-between"
              data-testid="team-member"
            >
              <div className="min-w-0">
                <p className="font-medium text-slate-900">
                  <span className="break-words">{member.display_name}</span>
                  {isMe ? (
                    <span className="ml-2 inline-block rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-slate-700">
                      You
                    </span>
                  ) : null}
                  {member.deactivated_at ? (
                    <span className="ml-2 inline-block rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-amber-900">
                      Deactivated
                    </span>
                  ) : null}
                </p>
                <p className="text-sm break-all text-slate-700">
                  {member.email}
                  {member.phone ? <span className="break-normal"> · {member.phone}</span> : null}
                </p>
                <p className="mt-1 text-sm text-slate-600">
                  Last sign-in: {member.last_sign_in_at ? <RelativeTime iso={member.last_sign_in_at} /> : 'never'} · Two-factor:{' '}
                  {member.two_factor ? 'on' : 'off'} · {member.owned_leads} {member.owned_leads === 1 ? 'lead' : 'leads'}
                </p>
                {member.failing_calendars > 0 ? (
                  <p className="mt-1 text-sm font-medium text-red-700">
                    {member.failing_calendars === 1 ? 'A calendar' : `${member.failing_calendars} calendars`} of theirs could not be synced:
                    their busy times may be out of date.
                  </p>
                ) : null}
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
                  <RowButton
                    label={`Reassign leads of ${member.email}`}
                    onClick={() => (setReassignTo(''), setPending({ kind: 'reassign', member }))}
                  >
                    Reassign leads
                  </RowButton>
                ) : null}
                {isMe ? null : member.deactivated_at ? (
                  <RowButton
                    label={`Reactivate ${member.email}`}
                    onClick={() =>
                      setActive.mutate(
                        { id: member.id, active: true },
                        {
                          onSuccess: () => toast.success(`${member.display_name} can sign in again.`),
                          onError: failed('Failed to reactivate'),
                        },
                      )
                    }
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
