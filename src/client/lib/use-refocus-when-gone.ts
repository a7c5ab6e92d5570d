import { useCallback, useEffect, useRef, type RefObject } from 'react';

/**
 * A list item that leaves its list with the focus on it (a task ticked done moves to another
 * list) takes the focus with it, and the keyboard would start again from the page's top. Call
 * `expect()` as the change starts: once the list has re-rendered without the focused item, the
 * focus goes to `target` (the list's heading). `cancel()` when the change failed.
 */
export function useRefocusWhenGone(target: RefObject<HTMLElement | null>, data: unknown) {
  const pending = useRef(false);
  useEffect(() => {
    if (!pending.current) return;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (!lost) return;
    pending.current = false;
    target.current?.focus();
  }, [data, target]);
  const expect = useCallback(() => {
    pending.current = true;
  }, []);
  const cancel = useCallback(() => {
    pending.current = false;
  }, []);
  return { expect, cancel };
}
