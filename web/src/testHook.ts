// window.__slubviz: the typed test hook. Tests read model state here (and
// data-* attributes in the DOM), never pixels.
import type { Snapshot, SvzEvent } from './engine/types';
import { act, type ActionName, type AppState, type Store } from './state/store';
import { dataDump } from './viz/common';

export interface StateSummary {
  status: AppState['status'];
  error: string | null;
  scenario: string | null;
  seq: number;
  op: number;
  opsTotal: number;
  seqTotal: number;
  inflight: number;
  playing: boolean;
  busy: boolean;
  event: SvzEvent | null;
  selectedCache: number | null;
  freeOps: number;
  checkpoints: number;
  summary: {
    caches: number;
    slabs: number;
    sheaves: number;
    objects: Record<string, number>;
  } | null;
}

export interface SlubvizTestHook {
  version: 1;
  state(): StateSummary;
  snapshot(): Snapshot | null;
  act(name: ActionName, ...args: unknown[]): Promise<unknown>;
  idle(): Promise<void>;
  /** data-* attributes of every drawn element under `selector` */
  dump(selector?: string): string[];
  trace(): string;
}

declare global {
  interface Window {
    __slubviz?: SlubvizTestHook;
  }
}

export function summarize(st: AppState): StateSummary {
  const f = st.frame;
  let summary: StateSummary['summary'] = null;
  if (f) {
    const objects: Record<string, number> = {};
    for (const s of f.snapshot.slabs) for (const ch of s.state) objects[ch] = (objects[ch] ?? 0) + 1;
    summary = { caches: f.snapshot.caches.length, slabs: f.snapshot.slabs.length, sheaves: f.snapshot.sheaves.length, objects };
  }
  return {
    status: st.status,
    error: st.error,
    scenario: st.scenario,
    seq: f?.seq ?? 0,
    op: f?.opsDone ?? 0,
    opsTotal: f?.opsTotal ?? 0,
    seqTotal: st.meta?.seqTotal ?? 0,
    inflight: f?.inflight ?? 0,
    playing: st.playing,
    busy: st.busy,
    event: f?.event ?? null,
    selectedCache: st.selectedCache,
    freeOps: st.freeOps.length,
    checkpoints: st.meta?.checkpoints ?? 0,
    summary,
  };
}

export function installTestHook(store: Store): void {
  window.__slubviz = {
    version: 1,
    state: () => summarize(store.getState()),
    snapshot: () => store.getState().frame?.snapshot ?? null,
    act: (name, ...args) => act(store, name, ...args),
    idle: () => store.idle(),
    dump: (selector = 'main') => {
      const el = document.querySelector(selector);
      return el ? dataDump(el) : [];
    },
    trace: () => store.getState().trace,
  };
}
