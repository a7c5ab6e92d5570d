import { lazy, Suspense, useId, useRef, useState, type ReactNode, type RefObject } from 'react';

// Radix Popover (and the positioning library under it) weighs about 24 KB gzipped: it loads
// the first time a panel opens, so the header stays inside the first load's budget.
const DropdownPanel = lazy(() => import('./dropdown-panel.tsx'));

type Props = {
  /** The button's accessible name, and its tooltip if any. */
  triggerLabel: string;
  triggerTitle?: string;
  triggerClassName: string;
  /** What the button shows (an icon, an initial, a badge). */
  trigger: ReactNode;
  /** The panel's accessible name and classes (its width, padding). */
  label: string;
  panelClassName: string;
  /** The panel's content; `close` closes it without moving focus (a link has taken the person elsewhere). */
  children: (close: () => void) => ReactNode;
  /** The button, for what must return focus to it later (a confirmation opened from the panel). */
  triggerRef?: RefObject<HTMLButtonElement | null>;
};

/**
 * A header button that shows a panel under it, as a non-modal popover (the notification bell,
 * the account menu): the button says whether it is expanded; opening moves focus to the panel;
 * the arrow keys (and Home, End) move between the panel's controls; Escape closes it and puts
 * focus back on the button; a click outside or focus moving outside closes it. The panel sits
 * under the button's right edge, kept 8 px inside the screen however narrow.
 * https://www.w3.org/WAI/ARIA/apg/patterns/disclosure/
 */
export function Dropdown({ triggerLabel, triggerTitle, triggerClassName, trigger, label, panelClassName, children, triggerRef }: Props) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const ownRef = useRef<HTMLButtonElement>(null);
  const button = triggerRef ?? ownRef;
  const panelId = useId();
  // Whether closing puts focus back on the button: yes for Escape, no after a click or focus
  // elsewhere or a link in the panel (the person has put focus, or gone, somewhere else).
  const [returnFocus, setReturnFocus] = useState(true);
  const close = () => {
    setReturnFocus(false);
    setOpen(false);
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label={triggerLabel}
        title={triggerTitle}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-haspopup="dialog"
        onClick={() => {
          setOpened(true);
          setReturnFocus(true);
          setOpen(!open);
        }}
        className={triggerClassName}
      >
        {trigger}
      </button>
      {opened ? (
        <Suspense fallback={null}>
          <DropdownPanel
            open={open}
            onOpenChange={setOpen}
            anchor={button}
            returnFocus={returnFocus}
            onLeave={() => setReturnFocus(false)}
            id={panelId}
            label={label}
            className={panelClassName}
          >
            {open ? children(close) : null}
          </DropdownPanel>
        </Suspense>
      ) : null}
    </>
  );
}
