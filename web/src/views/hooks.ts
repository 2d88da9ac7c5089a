import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { AppState, Store } from '../state/store';

export const StoreContext = createContext<Store | null>(null);

/** Prefix of the panels' element ids: the A/B view draws the same panels
 * once per side, and ids must stay unique in the page. */
export const PanelIdPrefix = createContext('');

export function useStore(): Store {
  const s = useContext(StoreContext);
  if (!s) throw new Error('no store');
  return s;
}

export function useAppState(): AppState {
  return useStateOf(useStore());
}

/** The state of a given store (the A/B view's side B). */
export function useStateOf(store: Store): AppState {
  return useSyncExternalStore(store.subscribe, store.getState);
}

/** An <svg> drawn by a D3 render function whenever `deps` change. */
export function useD3<E extends Element>(render: (el: E) => void, deps: unknown[]) {
  const ref = useRef<E>(null);
  useEffect(() => {
    if (ref.current) render(ref.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return ref;
}
