import { ChartColumn, Mail, RotateCw } from '#client/components/icons.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import type { EmailMessage, EmailMessageStatus, EmailOverview } from '#shared/schemas/email';
import { formatDate, DATE_TIME_FORMAT } from '#client/lib/format.ts';
import { useAuth } from '#client/lib/auth.tsx';
import { Link } from 'react-router';
import { useEmailOverview, useRetryEmail, useSendTestEmail, useSendWeeklyReport } from './api/email-overview.ts';
import { SettingsNav } from './settings-nav.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { RelativeTime } from '#client/components/ui/relative-time.tsx';

const STATUS: Record<EmailMessageStatus, { label: string; className: string }> = {
  queued: { label: 'Queued', className: 'bg-slate-100 text-slate-800' },
  sent: { label: 'Sent', className: 'bg-green-100 text-green-800' },
  failed: { label: 'Failed', className: 'bg-red-100 text-red-800' },
  not_sent: { label: 'Not sent', className: 'bg-amber-100 text-amber-900' },
};

/** /dashboard/settings/email: whether email is on, a test email, the weekly report, and the newest messages with their status. */
export function EmailSettingsPage() {
  const overview = useEmailOverview();
  return (
    <section className="space-y-6">
      <SettingsNav />
      {overview.data ? (
        <>
          <EmailStatus overview={overview.data} />
          <RepliesStatus replies={overview.data.replies} />
          <WeeklyReport enabled={overview.data.enabled} />
          <MessageList messages={overview.data.messages} canRetry={overview.data.enabled} />
        </>
      ) : overview.isError ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-sm text-slate-600">
          The email settings could not be loaded.
        </p>
      ) : (
        <Spinner className="py-16" label="Loading email settings..." />
      )}
    </section>
  );
}

/** Whether replies are read into the leads' timelines (IMAP_URL), and how the last look went. */
function RepliesStatus({ replies }: { replies: EmailOverview['replies'] }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="min-w-0 space-y-1">
        <h2 className="text-lg font-semibold text-slate-900">{replies.mailbox ? 'Replies are read' : 'Replies are not read'}</h2>
        {replies.mailbox ? (
          <>
            <p className="text-sm break-words text-slate-600">
              Reading <code className="rounded bg-slate-100 px-1 break-all">{replies.mailbox}</code>: a reply joins its lead’s timeline;
              other mail waits in the Inbox. Nothing in the mailbox is changed or marked read.
            </p>
            {replies.error ? (
              <p className="text-sm break-words text-red-700">The last look failed: {replies.error}</p>
            ) : replies.checked_at ? (
              <p className="text-sm text-slate-600">
                Last looked <RelativeTime iso={replies.checked_at} />.
              </p>
            ) : (
              <p className="text-sm text-slate-600">Not looked at yet.</p>
            )}
          </>
        ) : (
          <p className="text-sm text-slate-600">
            To put the answers to your emails on each lead’s timeline, set{' '}
            <code className="rounded bg-slate-100 px-1 break-all">IMAP_URL</code> (for example{' '}
            <code className="rounded bg-slate-100 px-1 break-all">imaps://user:password@imap.example.com:993/INBOX</code>) to the mailbox
            replies arrive in, then restart the server.
          </p>
        )}
      </div>
    </div>
  );
}

function EmailStatus({ overview }: { overview: EmailOverview }) {
  const { user } = useAuth();
  const sendTest = useSendTestEmail();
  const send = () =>
    sendTest.mutate(undefined, {
      onSuccess: () => toast.success(`Test email queued to ${user?.email ?? 'you'}`),
      onError: () => toast.error('Failed to queue the test email'),
    });
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <h2 className="text-lg font-semibold text-slate-900">{overview.enabled ? 'Email is on' : 'Email is off'}</h2>
          {overview.enabled ? (
            <p className="text-sm break-words text-slate-600">
              Sending through <code className="rounded bg-slate-100 px-1 break-all">{overview.transport}</code> as {overview.from}
              {overview.reply_to ? `, replies to ${overview.reply_to}` : ''}.
            </p>
          ) : (
            <p className="text-sm text-slate-600">
              Messages are recorded below, with where they would have gone, but not sent. To send them, set{' '}
              <code className="rounded bg-slate-100 px-1 break-all">SMTP_URL</code> (for example{' '}
              <code className="rounded bg-slate-100 px-1 break-all">smtp://user:password@mail.example.com:587</code>) and{' '}
              <code className="rounded bg-slate-100 px-1 break-all">MAIL_FROM</code>, then restart the server.
            </p>
          )}
          <p className="text-sm text-slate-600">
            Links in emails point to <code className="rounded bg-slate-100 px-1 break-all">{overview.public_url}</code> (set{' '}
            <code className="rounded bg-slate-100 px-1 break-all">PUBLIC_URL</code> if staff reach the dashboard at another address).{' '}
            {overview.lead_reminder_hours > 0
              ? `Leads are reminded ${overview.lead_reminder_hours} hours before an appointment.`
              : 'Leads get no appointment reminder.'}
          </p>
          {overview.queued > 0 ? <p className="text-sm text-slate-600">{overview.queued} waiting to be sent.</p> : null}
        </div>
        <Button
          onClick={send}
          // With email off there is nothing to test: the text beside it says how to turn it on.
          disabled={sendTest.isPending || !overview.enabled}
          className="shrink-0"
        >
          <Mail aria-hidden="true" className="size-4" />
          {sendTest.isPending ? 'Sending...' : 'Send a test email'}
        </Button>
      </div>
    </div>
  );
}

/** What the weekly report is, and Send now: the last complete week's report to the signed-in admin. */
function WeeklyReport({ enabled }: { enabled: boolean }) {
  const { user } = useAuth();
  const sendReport = useSendWeeklyReport();
  const send = () =>
    sendReport.mutate(undefined, {
      onSuccess: () => toast.success(`Weekly report queued to ${user?.email ?? 'you'}`),
      onError: () => toast.error('Failed to queue the weekly report'),
    });
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <h2 className="text-lg font-semibold text-slate-900">Weekly report</h2>
          <p className="text-sm text-slate-600">
            Every Monday at 8:00 AM (business time zone), last week&apos;s visitors, leads, calls booked, clients won and fees, with the
            change from the week before, the top sources and the follow-ups due, go to each admin who turned on{' '}
            <strong className="font-medium">Weekly report</strong> in their{' '}
            <Link to="/dashboard/account" className="text-blue-700 underline hover:text-blue-800">
              email preferences
            </Link>
            .
          </p>
        </div>
        <Button onClick={send} disabled={sendReport.isPending || !enabled} variant="secondary" className="shrink-0">
          <ChartColumn aria-hidden="true" className="size-4" />
          {sendReport.isPending ? 'Sending...' : 'Send now'}
        </Button>
      </div>
    </div>
  );
}

/** Failed and unsent messages can be sent again once email is on. */
function MessageList({ messages, canRetry }: { messages: EmailMessage[]; canRetry: boolean }) {
  const retry = useRetryEmail();
  const again = (id: string) =>
    retry.mutate(id, {
      onSuccess: () => toast.success('Email queued again'),
      onError: () => toast.error('Failed to retry the email'),
    });
  return (
    <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <h2 className="border-b border-slate-200 px-5 py-3 text-lg font-semibold text-slate-900">Last 50 messages</h2>
      {messages.length === 0 ? (
        <p className="px-5 py-10 text-center text-sm text-slate-500">No emails yet</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {messages.map((m) => (
            <li key={m.id} className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-start sm:justify-between">
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">{m.subject}</p>
                <p className="text-sm break-all text-slate-600">To {m.to}</p>
                <p className="text-xs text-slate-500">
                  {formatDate(m.created_at, DATE_TIME_FORMAT)}
                  {m.sent_at ? `, sent ${formatDate(m.sent_at, DATE_TIME_FORMAT)}` : ''}
                  {m.status === 'queued' && m.attempts > 0
                    ? `, ${m.attempts} ${m.attempts === 1 ? 'try' : 'tries'} so far, next at ${formatDate(m.next_attempt_at, DATE_TIME_FORMAT)}`
                    : ''}
                </p>
                {m.error ? <p className="mt-1 text-sm break-words text-red-700">{m.error}</p> : null}
              </div>
              <div className="flex shrink-0 items-center gap-2">
                <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${STATUS[m.status].className}`}>
                  {STATUS[m.status].label}
                </span>
                {canRetry && (m.status === 'failed' || m.status === 'not_sent') ? (
                  <button
                    type="button"
                    onClick={() => again(m.id)}
                    disabled={retry.isPending}
                    aria-label={`Retry: ${m.subject}, to ${m.to}`}
                    className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-2.5 py-1 text-sm text-slate-700 hover:bg-slate-50 disabled:opacity-60"
                  >
                    <RotateCw aria-hidden="true" className="size-3.5" />
                    Retry
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
