import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';

const EDGE_PX = 8;

/**
 * A button that shows a panel under it, as a non-modal popover (the notification bell):
 * the button says whether it is expanded; opening moves focus into the panel; Escape, a
 * click outside or focus moving outside closes it, and Escape puts focus back on the button.
 * The panel is fixed under the button's right edge and kept 8 px inside the screen, however
 * narrow. Give the button `triggerRef` and `triggerProps`, the panel `panelRef` and
 * `panelProps`, and put both inside `containerRef`. https://www.w3.org/WAI/ARIA/apg/patterns/disclosure/
 */
export function useDropdown() {
  const trigger = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [position, setPosition] = useState<{ top: number; right: number }>();
  const container = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const focused = useRef(false);
  const panelId = useId();

  const close = useCallback(
    (refocus: boolean) => {
      setOpen(false);
      setPosition(undefined);
      if (refocus) trigger.current?.focus();
    },
    [trigger],
  );

  // Placed before it is shown: its width is known once it is laid out (hidden).
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const rect = trigger.current?.getBoundingClientRect();
      if (!rect || !panel.current) return;
      const viewport = document.documentElement.clientWidth;
      const right = Math.max(EDGE_PX, Math.min(viewport - rect.right, viewport - EDGE_PX - panel.current.offsetWidth));
      setPosition({ top: rect.bottom + EDGE_PX, right });
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open, trigger]);

  useEffect(() => {
    if (!open) {
      focused.current = false;
      return;
    }
    if (position && !focused.current) {
      focused.current = true;
      panel.current?.focus();
    }
  }, [open, position]);

  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (!container.current?.contains(event.target as Node)) close(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(true);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open, close]);

  const style: CSSProperties = position ? { top: position.top, right: position.right } : { visibility: 'hidden' };
  return {
    open,
    containerRef: container,
    triggerRef: trigger,
    panelRef: panel,
    triggerProps: {
      'aria-expanded': open,
      'aria-controls': open ? panelId : undefined,
      'aria-haspopup': 'dialog' as const,
      onClick: () => (open ? close(false) : setOpen(true)),
    },
    panelProps: { id: panelId, tabIndex: -1, style },
    /** Closes the panel without moving focus (a link in it has taken the person elsewhere). */
    close: () => close(false),
  };
}
