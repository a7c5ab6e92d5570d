import * as Dialog from '@radix-ui/react-dialog';
import { X } from '#client/components/icons.tsx';
import type { ReactNode } from 'react';
import { useReturnFocus } from './return-focus.ts';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** Read by screen readers when the dialog opens. */
  description?: string;
  children: ReactNode;
};

/**
 * An accessible modal (Radix Dialog): focus is trapped inside and returned to where it was,
 * Escape and the close button close it, the page behind is inert.
 */
export function Modal({ open, onOpenChange, title, description, children }: Props) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          {...returnFocus}
          // Without a description, say so explicitly (Radix otherwise warns about a missing one).
          {...(description ? {} : { 'aria-describedby': undefined })}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-xl"
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4">
            <div>
              <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
              {description ? <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description> : null}
            </div>
            <Dialog.Close aria-label="Close" className="-m-1 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900">
              <X aria-hidden="true" className="size-5" />
            </Dialog.Close>
          </div>
          <div className="overflow-y-auto px-6 py-5">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
