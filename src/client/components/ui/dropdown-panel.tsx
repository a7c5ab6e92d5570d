import * as Popover from '@radix-ui/react-popover';
import { useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

const EDGE_PX = 8;
const FOCUSABLE =
  'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  anchor: RefObject<HTMLButtonElement | null>;
  /** Whether closing puts focus back on the button; `onLeave` says the person went elsewhere. */
  returnFocus: boolean;
  onLeave: () => void;
  id: string;
  label: string;
  className: string;
  children: ReactNode;
};

/** ArrowDown/ArrowUp (round), Home and End move focus between the panel's controls. */
function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const keys = ['ArrowDown', 'ArrowUp', 'Home', 'End'];
  if (!keys.includes(event.key) || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement) return;
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  if (items.length === 0) return;
  event.preventDefault();
  const at = items.indexOf(document.activeElement as HTMLElement);
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? items.length - 1
        : event.key === 'ArrowDown'
          ? (at + 1) % items.length
          : (at <= 0 ? items.length : at) - 1;
  items[next]?.focus();
}

/** The panel of `Dropdown` (dropdown.tsx), on Radix Popover, anchored to the Dropdown's own button. */
export default function DropdownPanel({ open, onOpenChange, anchor, returnFocus, onLeave, id, label, className, children }: Props) {
  const panel = useRef<HTMLDivElement>(null);
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Anchor virtualRef={anchor} />
      <Popover.Portal>
        <Popover.Content
          ref={panel}
          id={id}
          aria-label={label}
          tabIndex={-1}
          align="end"
          sideOffset={EDGE_PX}
          collisionPadding={EDGE_PX}
          className={`z-[70] focus:outline-none ${className}`}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            panel.current?.focus();
          }}
          onInteractOutside={(event) => {
            // The button toggles the panel itself.
            if (anchor.current?.contains(event.target as Node)) event.preventDefault();
            else onLeave();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (returnFocus) anchor.current?.focus();
          }}
          onKeyDown={moveFocus}
        >
          {children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
