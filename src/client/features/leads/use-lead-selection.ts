import { useCallback, useMemo, useState } from 'react';

const NONE: ReadonlySet<string> = new Set();

export type LeadSelection = {
  ids: string[];
  size: number;
  has: (id: string) => boolean;
  /** Adds (or removes) these leads. */
  setMany: (ids: readonly string[], selected: boolean) => void;
  clear: () => void;
};

/**
 * The leads ticked for a bulk action. The selection belongs to the view it was made in: a new
 * search, filter, sort or page (`viewKey`) starts with none, so an action never reaches rows
 * that are no longer on screen.
 */
export function useLeadSelection(viewKey: string): LeadSelection {
  const [state, setState] = useState<{ key: string; ids: ReadonlySet<string> }>({ key: viewKey, ids: new Set() });
  // A new view: drop the selection now (React re-renders at once with the new state).
  if (state.key !== viewKey) setState({ key: viewKey, ids: new Set() });
  const ids = state.key === viewKey ? state.ids : NONE;

  const setMany = useCallback(
    (changed: readonly string[], selected: boolean) =>
      setState((previous) => {
        const next = new Set(previous.key === viewKey ? previous.ids : []);
        for (const id of changed) {
          if (selected) next.add(id);
          else next.delete(id);
        }
        return { key: viewKey, ids: next };
      }),
    [viewKey],
  );
  const clear = useCallback(() => setState({ key: viewKey, ids: new Set() }), [viewKey]);
  return useMemo(() => ({ ids: [...ids], size: ids.size, has: (id: string) => ids.has(id), setMany, clear }), [ids, setMany, clear]);
}
