import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A dialog whose code loads the first time it opens, and stays for later openings: a page
 * downloads its dialogs' libraries (Radix Dialog and their own code) only once a person asks
 * for one. `isOpen` reads the dialog's own props (`open`, or the record it shows).
 */
export function lazyDialog<P extends object>(load: () => Promise<ComponentType<P>>, isOpen: (props: P) => boolean) {
  const Dialog = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: P) {
    const [wanted, setWanted] = useState(false);
    if (!wanted && isOpen(props)) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}

/** The confirmation dialog (Radix AlertDialog), loaded when first asked. */
export const ConfirmDialog = lazyDialog(
  () => import('./confirm-dialog.tsx').then((m) => m.ConfirmDialog),
  (props) => props.open,
);
