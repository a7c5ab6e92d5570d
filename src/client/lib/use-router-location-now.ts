import { useCallback, useContext } from 'react';
import { UNSAFE_NavigationContext, type Location } from 'react-router';

/**
 * Reads where the router is *now*, which may be ahead of what is rendered: React Router
 * renders a navigation as a transition, so while the next page's code loads, `useLocation()`
 * and the old page (with its timers) stay as they were. A delayed write to the URL (a
 * debounced search) checks this first, so it never pulls the person back from where they went.
 *
 * The navigator of BrowserRouter and MemoryRouter is their history, whose `location` is current
 * as soon as a navigation starts. React Router exports that context as UNSAFE_ (not part of its
 * stable API); without a `location` on it, this answers undefined and the caller goes ahead.
 */
export function useRouterLocationNow(): () => Pick<Location, 'pathname' | 'search'> | undefined {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  return useCallback(() => {
    const location = (navigator as { location?: unknown }).location;
    if (typeof location !== 'object' || location === null) return undefined;
    const { pathname, search } = location as Partial<Location>;
    return typeof pathname === 'string' && typeof search === 'string' ? { pathname, search } : undefined;
  }, [navigator]);
}
