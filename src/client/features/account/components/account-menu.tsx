import { lazy } from 'react';
import { Dropdown } from '#client/components/ui/dropdown.tsx';
import { useCurrentUser } from '#client/lib/auth.tsx';

// The panel's content (the email preferences and their requests) loads with the panel, when first opened.
const AccountPanel = lazy(() => import('./account-panel.tsx'));

/** The header's account button: who is signed in (name and email), their email preferences, their account page and (owners) the email settings. */
export function AccountMenu({ email }: { email: string }) {
  const user = useCurrentUser();
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
      {(close) => <AccountPanel name={name} email={email} isOwner={user?.role === 'owner'} close={close} />}
    </Dropdown>
  );
}
