/**
 * A tiny toast store for the public pages (sonner and Radix are too heavy for the
 * 20 KB budget of `/`). Components call `toast.success()` / `toast.error()`;
 * <Toaster /> renders the list.
 */
export type ToastKind = 'success' | 'error' | 'info';
export type ToastMessage = { id: number; kind: ToastKind; message: string; title?: string };

type Listener = () => void;

const EMPTY: ToastMessage[] = [];
let toasts: ToastMessage[] = EMPTY;
let nextId = 1;
const listeners = new Set<Listener>();

function emit() {
  for (const listener of listeners) listener();
}

function add(kind: ToastKind, message: string, title?: string): number {
  const id = nextId++;
  // Keep the newest few; a burst of clicks must not fill the screen.
  toasts = [...toasts, title === undefined ? { id, kind, message } : { id, kind, message, title }].slice(-4);
  emit();
  return id;
}

export const toast = {
  success: (message: string) => add('success', message),
  error: (message: string) => add('error', message),
  /** A titled notice, e.g. a live notification ("New Lead"). */
  info: (title: string, message: string) => add('info', message, title),
  dismiss(id: number) {
    toasts = toasts.filter((t) => t.id !== id);
    emit();
  },
  clear() {
    toasts = EMPTY;
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
