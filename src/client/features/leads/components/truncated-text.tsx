import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';

/**
 * Whether the element's text is cut (wider than its box), kept up to date as the box resizes.
 * While the element has focus the answer stands: showing the full value on focus widens it, and
 * a focused element that stopped being focusable would lose the focus.
 */
function useIsCut(ref: RefObject<HTMLElement | null>, text: string): boolean {
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      if (element.ownerDocument.activeElement !== element) setCut(element.scrollWidth > element.clientWidth);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, text]);
  return cut;
}

const fullOnFocus = 'focus-visible:whitespace-normal focus-visible:[overflow-wrap:anywhere]';

/**
 * One line of text cut with an ellipsis when its column is too narrow. A cut value keeps its
 * full text in the title (hover) and can be reached with Tab, which shows it whole in place;
 * screen readers read the whole text either way.
 */
export function TruncatedText({ text, className = '' }: { text: string; className?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const cut = useIsCut(ref, text);
  return (
    <span
      ref={ref}
      title={cut ? text : undefined}
      tabIndex={cut ? 0 : undefined}
      className={`block truncate rounded-sm focus-visible:outline-2 focus-visible:outline-blue-600 ${fullOnFocus} ${className}`}
    >
      {text}
    </span>
  );
}

/** A link whose text is cut like TruncatedText: the title holds it all, and keyboard focus shows it whole. */
export function TruncatedLink({ text, to, className = '' }: { text: string; to: string; className?: string }) {
  const ref = useRef<HTMLAnchorElement>(null);
  const cut = useIsCut(ref, text);
  return (
    <Link ref={ref} to={to} title={cut ? text : undefined} className={`block truncate ${fullOnFocus} ${className}`}>
      {text}
    </Link>
  );
}
