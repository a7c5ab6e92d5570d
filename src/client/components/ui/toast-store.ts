/**
 * A tiny toast store for the public pages (sonner and Radix would weigh on `/`, whose
 * JavaScript is mostly React DOM already). Components call `toast.success()` / `toast.error()`;
 * <Toaster /> renders the list.
 *
 * Two kinds of toast (docs/product-rules.md, "Toasts"): a person's own confirmation or
 * failure (success, error: an *action* toast) and a live notification (info). A live
 * notification never pushes out or covers an action toast: while one shows, live toasts
 * wait, and they come once the last action toast has gone.
 */
export type ToastKind = 'success' | 'error' | 'info';
export type ToastMessage = { id: number; kind: ToastKind; message: string; title?: string };

type Listener = () => void;

/** At most this many on screen (a burst of clicks or notifications must not fill it), and waiting. */
export const MAX_TOASTS = 4;

const EMPTY: ToastMessage[] = [];
let toasts: ToastMessage[] = EMPTY;
/** Live notifications that came while an action toast showed, oldest first. */
let waiting: ToastMessage[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

const isLive = (t: ToastMessage) => t.kind === 'info';

function emit() {
  for (const listener of listeners) listener();
}

/** Action toasts first (the newest last), then live ones; past the limit the oldest live ones go first. */
function settle(list: ToastMessage[]): ToastMessage[] {
  const actions = list.filter((t) => !isLive(t)).slice(-MAX_TOASTS);
  const room = MAX_TOASTS - actions.length;
  return room > 0 ? [...actions, ...list.filter(isLive).slice(-room)] : actions;
}

function release() {
  if (waiting.length === 0 || toasts.some((t) => !isLive(t))) return;
  toasts = settle([...toasts, ...waiting]);
  waiting = [];
}

function add(kind: ToastKind, message: string, title?: string): number {
  const id = nextId++;
  const next: ToastMessage = title === undefined ? { id, kind, message } : { id, kind, message, title };
  if (isLive(next) && toasts.some((t) => !isLive(t))) waiting = [...waiting, next].slice(-MAX_TOASTS);
  else toasts = settle([...toasts, next]);
  emit();
  return id;
}

export const toast = {
  success: (message: string) => add('success', message),
  error: (message: string) => add('error', message),
  /** A live notification's toast ("New Lead"): it waits behind the person's own toasts. */
  info: (title: string, message: string) => add('info', message, title),
  dismiss(id: number) {
    toasts = toasts.filter((t) => t.id !== id);
    waiting = waiting.filter((t) => t.id !== id);
    release();
    emit();
  },
  clear() {
    toasts = EMPTY;
    waiting = [];
    emit();
  },
};

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function getToasts(): ToastMessage[] {
  return toasts;
}

export function getServerToasts(): ToastMessage[] {
  return EMPTY;
}
