import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Bell, CircleAlert, CircleCheck, X } from '#client/components/icons.tsx';
import { getServerToasts, getToasts, subscribeToasts, toast, type ToastMessage } from './toast-store.ts';

/** How long each kind stays on screen, counted only while it can be read (docs/product-rules.md, "Toasts"). */
export const DURATION_MS: Record<ToastMessage['kind'], number> = { success: 5000, error: 10000, info: 8000 };

/**
 * Top-right, closable toasts. Errors use role=alert (assertive), others role=status.
 * `belowHeader`: in the dashboard, toasts start under the 4rem header so they never hide
 * the bell, the admin's name or the menu toggle.
 */
export function Toaster({ belowHeader = false }: { belowHeader?: boolean }) {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getServerToasts);
  return (
    <section
      aria-label="Notifications"
      aria-live="polite"
      aria-relevant="additions"
      className={`pointer-events-none fixed ${belowHeader ? 'top-20' : 'top-4'} right-4 left-4 z-[60] flex flex-col items-end gap-3 sm:left-auto sm:w-96`}
    >
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </section>
  );
}

function ToastItem({ toast: t }: { toast: ToastMessage }) {
  const paused = useRef(false);
  const remaining = useRef(DURATION_MS[t.kind]);

  // Auto-dismiss, paused while hovered or focused (WCAG 2.2.2: enough time to read) and while
  // the tab is hidden: a confirmation that came while the person looked elsewhere waits for them.
  useEffect(() => {
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      if (!paused.current && document.visibilityState !== 'hidden') remaining.current -= now - last;
      last = now;
      if (remaining.current <= 0) toast.dismiss(t.id);
    }, 250);
    return () => clearInterval(timer);
  }, [t.id]);

  const isError = t.kind === 'error';
  const Icon = isError ? CircleAlert : t.kind === 'info' ? Bell : CircleCheck;
  return (
    <div
      role={isError ? 'alert' : 'status'}
      aria-live={isError ? 'assertive' : 'polite'}
      aria-atomic="true"
      onFocus={() => (paused.current = true)}
      onBlur={() => (paused.current = false)}
      // Top-right is where pages keep their main buttons (Schedule, Add Lead, the bell): a
      // toast must not block them, so only its close button takes clicks.
      className={`toast-enter pointer-events-none flex w-full items-start gap-3 rounded-lg border bg-white p-4 text-sm shadow-lg ${
        isError ? 'border-red-200 text-red-900' : 'border-emerald-200 text-slate-900'
      }`}
    >
      <Icon
        aria-hidden="true"
        className={`mt-0.5 size-5 shrink-0 ${isError ? 'text-red-600' : t.kind === 'info' ? 'text-blue-600' : 'text-emerald-600'}`}
      />
      <div className="flex-1 leading-snug">
        {t.title ? <p className="font-semibold">{t.title}</p> : null}
        <p>{t.message}</p>
      </div>
      <button
        type="button"
        onClick={() => toast.dismiss(t.id)}
        onMouseEnter={() => (paused.current = true)}
        onMouseLeave={() => (paused.current = false)}
        aria-label="Close notification"
        className="pointer-events-auto -m-1 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
