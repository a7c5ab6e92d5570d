import { Link } from 'react-router';
import { Dropdown } from '#client/components/ui/dropdown.tsx';
import { useCurrentUser } from '#client/lib/auth.tsx';
import { EmailPreferenceFields } from './email-preference-fields.tsx';

/** The header's account button: who is signed in (name and email), their email preferences, their account page and (owners) the email settings. */
export function AccountMenu({ email }: { email: string }) {
  const user = useCurrentUser();
  const isOwner = user?.role === 'owner';
  const name = user?.display_name || email || 'Admin';

  return (
    <Dropdown
      triggerLabel={`Account: signed in as ${name}`}
      triggerTitle={name}
      triggerClassName="flex size-9 items-center justify-center rounded-full bg-blue-700 font-semibold text-white hover:bg-blue-800"
      trigger={(name[0] ?? 'A').toUpperCase()}
      label="Account"
      panelClassName="w-[min(20rem,calc(100vw-1rem))] rounded-lg border border-slate-200 bg-white p-4 shadow-xl"
    >
      {(close) => (
        <>
          <p className="text-xs text-slate-500">Signed in as</p>
          <p className="truncate font-medium text-slate-900">{name}</p>
          {email && email !== name ? <p className="truncate text-sm text-slate-600">{email}</p> : null}
          <EmailPreferenceFields enabled className="mt-4 border-t border-slate-200 pt-3" />
          <Link to="/dashboard/account" onClick={close} className="mt-4 block text-sm font-medium text-blue-700 hover:underline">
            Your account
          </Link>
          {isOwner ? (
            <Link to="/dashboard/settings/email" onClick={close} className="mt-2 block text-sm font-medium text-blue-700 hover:underline">
              Email settings
            </Link>
          ) : null}
        </>
      )}
    </Dropdown>
  );
}
