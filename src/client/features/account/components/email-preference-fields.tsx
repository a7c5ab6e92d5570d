import { useState } from 'react';
import { toast } from '#client/components/ui/toast-store.ts';
import type { EmailPreferences } from '#shared/schemas/email';
import { useEmailPreferences, useUpdateEmailPreferences } from '../api/email-preferences.ts';

const CHOICES: { key: keyof EmailPreferences; label: string; hint: string }[] = [
  { key: 'email_new_leads', label: 'Email me about new leads', hint: 'Every lead, as it arrives' },
  {
    key: 'email_appointments',
    label: 'Email me appointment changes',
    hint: 'A calendar invitation whenever one is scheduled, moved or cancelled',
  },
  { key: 'email_replies', label: 'Email me when a lead replies', hint: 'Their reply’s start, for the leads you own' },
  { key: 'email_task_digest', label: 'Morning task list', hint: 'Your tasks due that day, every morning at 7:00 AM' },
  {
    key: 'email_weekly_report',
    label: 'Weekly report',
    hint: "Last week's visitors, leads, bookings, clients and fees, every Monday at 8:00 AM",
  },
];

/** The signed-in admin's email preferences, saved as each box is ticked (the account menu and the account page). */
export function EmailPreferenceFields({ enabled = true, className = '' }: { enabled?: boolean; className?: string }) {
  const preferences = useEmailPreferences(enabled);
  const update = useUpdateEmailPreferences();
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
    <fieldset className={`space-y-3 ${className}`}>
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
  );
}
