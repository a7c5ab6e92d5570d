import { Link } from 'react-router';
import { EmailPreferenceFields } from './email-preference-fields.tsx';

type Props = { name: string; email: string; isOwner: boolean; close: () => void };

/** The account menu's panel (account-menu.tsx): who is signed in, their email preferences and links to their account and (owners) the email settings. */
export default function AccountPanel({ name, email, isOwner, close }: Props) {
  return (
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
  );
}
