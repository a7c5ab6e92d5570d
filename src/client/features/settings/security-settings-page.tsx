import { useState } from 'react';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useSaveSecuritySettings, useSecuritySettings } from './api/security.ts';
import { SettingsNav } from './settings-nav.tsx';

/** /dashboard/settings/security (owners): whether everyone must use two-factor. */
export function SecuritySettingsPage() {
  // The switch follows the click at once; the saved value (or the old one, if saving fails) replaces it after.
  const [pending, setPending] = useState<boolean>();
  const settings = useSecuritySettings();
  const save = useSaveSecuritySettings();
  const saveRequired = (required: boolean) =>
    save.mutate(
      { require_two_factor: required },
      {
        onSuccess: (saved) =>
          toast.success(saved.require_two_factor ? 'Two-factor is now required for everyone.' : 'Two-factor is no longer required.'),
        onError: (err) => toast.error(err instanceof ApiError ? err.message : 'Failed to save the security settings'),
        onSettled: () => setPending(undefined),
      },
    );
  return (
    <section className="space-y-6">
      <SettingsNav />
      <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 className="text-lg font-semibold text-slate-900">Security</h2>
        {settings.data ? (
          <label className="mt-4 flex items-start gap-3 text-sm">
            <input
              type="checkbox"
              role="switch"
              className="mt-0.5 size-4 rounded border-slate-300"
              checked={pending ?? settings.data.require_two_factor}
              disabled={save.isPending}
              onChange={(e) => {
                const required = e.currentTarget.checked;
                setPending(required);
                saveRequired(required);
              }}
            />
            <span>
              <span className="block font-medium text-slate-800">Require two-factor authentication for everyone</span>
              <span className="block text-slate-600">
                People without it are sent to set it up the next time they open the dashboard, and cannot use the rest until they have. Turn
                it on for your own account first (Your account → Two-factor authentication).
              </span>
            </span>
          </label>
        ) : settings.isError ? (
          <p className="mt-4 text-sm text-slate-600">The security settings could not be loaded.</p>
        ) : (
          <Spinner className="py-8" label="Loading security settings..." />
        )}
      </div>
    </section>
  );
}
