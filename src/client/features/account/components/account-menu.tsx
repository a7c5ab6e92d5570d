import { Link } from 'react-router';
import { useDropdown } from '#client/components/ui/use-dropdown.ts';
import { useCurrentUser } from '#client/lib/auth.tsx';
import { EmailPreferenceFields } from './email-preference-fields.tsx';

/** The header's account button: who is signed in (name and email), their email preferences, their account page and (owners) the email settings. */
export function AccountMenu({ email }: { email: string }) {
  const { open, containerRef, triggerRef, panelRef, triggerProps, panelProps } = useDropdown();
  const user = useCurrentUser();
  const isOwner = user?.role === 'owner';
  const name = user?.display_name || email || 'Admin';

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={triggerRef}
        type="button"
        {...triggerProps}
        aria-label={`Account: signed in as ${name}`}
        title={name}
        className="flex size-9 items-center justify-center rounded-full bg-blue-700 font-semibold text-white hover:bg-blue-800"
      >
        {(name[0] ?? 'A').toUpperCase()}
      </button>
      {open ? (
        <div
          ref={panelRef}
          {...panelProps}
          role="dialog"
          aria-label="Account"
          className="fixed z-[70] w-[min(20rem,calc(100vw-1rem))] rounded-lg border border-slate-200 bg-white p-4 shadow-xl focus:outline-none"
        >
          <p className="text-xs text-slate-500">Signed in as</p>
          <p className="truncate font-medium text-slate-900">{name}</p>
          {email && email !== name ? <p className="truncate text-sm text-slate-600">{email}</p> : null}
          <EmailPreferenceFields enabled={open} className="mt-4 border-t border-slate-200 pt-3" />
          <Link to="/dashboard/account" className="mt-4 block text-sm font-medium text-blue-700 hover:underline">
            Your account
          </Link>
          {isOwner ? (
            <Link to="/dashboard/settings/email" className="mt-2 block text-sm font-medium text-blue-700 hover:underline">
              Email settings
            </Link>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
