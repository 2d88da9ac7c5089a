import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { AppState, Store } from '../state/store';

export const StoreContext = createContext<Store | null>(null);

export function useStore(): Store {
  const s = useContext(StoreContext);
  if (!s) throw new Error('no store');
  return s;
}

export function useAppState(): AppState {
  const store = useStore();
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
