import { Bell, Trash2 } from '#client/components/icons.tsx';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { Dropdown } from '#client/components/ui/dropdown.tsx';
import { ConfirmDialog } from '#client/components/ui/lazy-dialog.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { formatZonedDateTime } from '#client/lib/format.ts';
import { useClearNotifications, useMarkAllNotificationsRead, useMarkNotificationRead, useNotifications } from '../api/notifications.ts';

const CLEAR_CONFIRMATION = 'Are you sure you want to clear all notifications? This action cannot be undone.';

/** The header's bell: unread badge, the list, mark read, mark all read, clear all. */
export function NotificationBell() {
  const { data, isPending } = useNotifications();
  const notifications = data?.notifications ?? [];
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const clear = useClearNotifications();
  const [confirming, setConfirming] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const unread = notifications.filter((n) => !n.read).length;

  const clearAll = () =>
    clear.mutate(undefined, {
      onSuccess: () => toast.success('All notifications cleared'),
      onError: () => toast.error('Failed to clear notifications'),
      onSettled: () => setConfirming(false),
    });

  return (
    <>
      <Dropdown
        triggerRef={triggerRef}
        triggerLabel={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        triggerClassName="relative rounded-full p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        trigger={
          <>
            <Bell aria-hidden="true" className="size-6" />
            {unread > 0 ? (
              <span
                data-testid="unread-count"
                className="absolute -top-0.5 -right-0.5 flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-xs font-bold text-white"
              >
                {unread > 99 ? '99+' : unread}
              </span>
            ) : null}
          </>
        }
        label="Notifications"
        panelClassName="w-[min(24rem,calc(100vw-1rem))] rounded-lg border border-slate-200 bg-white shadow-xl"
      >
        {(close) => (
          <>
            <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
              <h2 className="font-semibold text-slate-900">Notifications</h2>
              <div className="flex items-center gap-1">
                <button
                  type="button"
                  onClick={() => markAll.mutate()}
                  disabled={unread === 0}
                  className="rounded px-2 py-1 text-sm text-blue-700 hover:bg-blue-50 disabled:text-slate-400 disabled:hover:bg-transparent"
                >
                  Mark all as read
                </button>
                {notifications.length > 0 ? (
                  <button
                    type="button"
                    onClick={() => setConfirming(true)}
                    aria-label="Clear all notifications"
                    className="rounded p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-700"
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                  </button>
                ) : null}
              </div>
            </div>
            <div className="max-h-96 overflow-y-auto">
              {isPending ? (
                <p className="px-4 py-6 text-center text-sm text-slate-500">Loading notifications...</p>
              ) : notifications.length === 0 ? (
                <p className="px-4 py-6 text-center text-sm text-slate-500">No new notifications</p>
              ) : (
                <ul className="divide-y divide-slate-100">
                  {notifications.map((n) => {
                    const content = (
                      <>
                        <span className={`block text-sm ${n.read ? 'text-slate-700' : 'font-semibold text-slate-900'}`}>
                          {n.read ? null : <span className="sr-only">Unread: </span>}
                          {n.message}
                        </span>
                        {/* In the business time zone, named: the times the messages quote are that zone's. */}
                        <time dateTime={n.created_at} className="mt-1 block text-xs text-slate-600">
                          {formatZonedDateTime(n.created_at, data?.time_zone)}
                        </time>
                      </>
                    );
                    const className = `block w-full px-4 py-3 text-left hover:bg-slate-50 ${n.read ? '' : 'bg-blue-50'}`;
                    const markThis = () => !n.read && markRead.mutate(n.id);
                    return (
                      <li key={n.id}>
                        {/* About a lead: a link to its page (reading it there marks it read). */}
                        {n.lead_id ? (
                          <Link
                            to={`/dashboard/leads/${encodeURIComponent(n.lead_id)}`}
                            onClick={() => {
                              markThis();
                              close();
                            }}
                            data-unread={!n.read || undefined}
                            className={className}
                          >
                            {content}
                          </Link>
                        ) : (
                          <button type="button" onClick={markThis} data-unread={!n.read || undefined} className={className}>
                            {content}
                          </button>
                        )}
                      </li>
                    );
                  })}
                </ul>
              )}
            </div>
          </>
        )}
      </Dropdown>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Clear all notifications"
        description={CLEAR_CONFIRMATION}
        confirmLabel="Clear all"
        busy={clear.isPending}
        onConfirm={clearAll}
        returnFocusRef={triggerRef}
      />
    </>
  );
}
