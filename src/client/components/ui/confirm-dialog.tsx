import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useReturnFocus } from './return-focus.ts';
import type { ReactNode, RefObject } from 'react';
import { buttonClass } from '#client/components/ui/button.tsx';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  /** Where focus goes on close, when the control that opened the dialog may be gone. */
  returnFocusRef?: RefObject<HTMLElement | null>;
  /** More to read or choose before confirming, under the description. */
  children?: ReactNode;
};

/** An accessible confirmation (focus trapped and restored, Escape cancels). */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  busy = false,
  onConfirm,
  returnFocusRef,
  children,
}: Props) {
  // Without a returnFocusRef, focus goes back to whatever opened the dialog (a row's button).
  const returnFocus = useReturnFocus();
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <AlertDialog.Content
          onOpenAutoFocus={returnFocus.onOpenAutoFocus}
          onCloseAutoFocus={(event) => {
            if (!returnFocusRef?.current) return returnFocus.onCloseAutoFocus(event);
            event.preventDefault();
            returnFocusRef.current.focus();
          }}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl"
        >
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600">{description}</AlertDialog.Description>
          {children}
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel className={buttonClass({ variant: 'secondary' })}>Cancel</AlertDialog.Cancel>
            <AlertDialog.Action
              disabled={busy}
              onClick={(event) => {
                event.preventDefault(); // stay open until the action settles
                onConfirm();
              }}
              className={buttonClass({ variant: 'danger' })}
            >
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
