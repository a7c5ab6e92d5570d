import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '#client/components/ui/toast-store.ts';
import { useDropdown } from '#client/components/ui/use-dropdown.ts';
import type { EmailPreferences } from '#shared/schemas/email';
import { useEmailPreferences, useUpdateEmailPreferences } from '../api/email-preferences.ts';

const CHOICES: { key: keyof EmailPreferences; label: string; hint: string }[] = [
  { key: 'email_new_leads', label: 'Email me about new leads', hint: 'Every lead, as it arrives' },
  { key: 'email_appointments', label: 'Email me appointment changes', hint: 'A calendar invitation whenever one is scheduled, moved or cancelled' },
];

/** The header's account button: who is signed in, their email preferences, and the email settings. */
export function AccountMenu({ email }: { email: string }) {
  const { open, containerRef, triggerRef, panelRef, triggerProps, panelProps } = useDropdown();
  const preferences = useEmailPreferences(open);
  const update = useUpdateEmailPreferences();
  const name = email || 'Admin';

  // The box follows the click at once; the saved value (or the old one, if saving fails) replaces it after.
  const [pending, setPending] = useState<Partial<EmailPreferences>>({});
  const change = (key: keyof EmailPreferences, value: boolean) => {
    setPending((p) => ({ ...p, [key]: value }));
    update.mutate(
      { [key]: value },
      {
        onError: () => toast.error('Failed to save your email preferences'),
        onSettled: () => setPending(({ [key]: _done, ...rest }) => rest),
      },
    );
  };

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
        {(email[0] ?? 'A').toUpperCase()}
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
          <fieldset className="mt-4 space-y-3 border-t border-slate-200 pt-3">
            <legend className="sr-only">Email</legend>
            {CHOICES.map(({ key, label, hint }) => (
              <label key={key} className="flex items-start gap-3 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 rounded border-slate-300"
                  checked={pending[key] ?? preferences.data?.[key] ?? false}
                  disabled={!preferences.data}
                  onChange={(e) => change(key, e.currentTarget.checked)}
                />
                <span>
                  <span className="block font-medium text-slate-800">{label}</span>
                  <span className="block text-xs text-slate-500">{hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <Link to="/dashboard/settings/email" className="mt-4 block text-sm font-medium text-blue-700 hover:underline">
            Email settings
          </Link>
        </div>
      ) : null}
    </div>
  );
}
