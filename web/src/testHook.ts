// window.__slubviz: the typed test hook. Tests read model state here (and
// data-* attributes in the DOM), never pixels.
import type { DeferredState } from '../../core/wasm/slubviz-api';
import { synthFtraceBlob } from './engine/synth';
import type { Snapshot, SvzEvent } from './engine/types';
import { act, type ActionName } from './state/actions';
import type { AppState, Store } from './state/store';
import { dataDump } from './viz/common';
import { flightLog } from './views/Transitions';

export interface StateSummary {
  status: AppState['status'];
  error: string | null;
  notice: AppState['notice'];
  /** engine worker restarts (after crashes) */
  restarts: number;
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
  /** an imported trace (held by the worker), else null */
  traceRef: string | null;
  traceName: string | null;
  /** an import in flight: bytes done/total, lines, progress messages seen */
  importing: AppState['importing'];
  /** the import shown: ok, its format and counts, or its error */
  importView: { ok: boolean; open: boolean; format?: string; events?: number; kept?: number; ops?: number; badLines?: number; error?: string; ms?: { import: number; export: number; store: number } } | null;
  stored: { id: string; name: string; ops: number }[];
  siteFilter: string;
  /** the schedule picked ('' = the trace's own) and the run's (snapshot) */
  schedule: string;
  scheduleKind: string;
  /** steps chosen by hand (engine/hand.ts text form) and the note about them */
  hand: string;
  handNote: AppState['handNote'];
  /** the run stopped (a report), and its first report */
  stopped: boolean;
  runError: string;
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
  /** event transitions flown so far ("sheaf 3 main->barn_full"), newest last */
  flights(): string[];
  /** a generated N-line ftrace kmem log (engine/synth.ts), for import tests and the bench */
  synthFtrace(lines: number): Blob;
  /** the handles live at the end of the trace (free play can free them) */
  liveHandles(): { handle: string; cache: string; kmalloc: boolean; site: string }[];
  /** how the engine's wasm module got its deferred half (Release builds
   * split it: core/wasm/split.mjs): 'prefetched' after the first screen,
   * 'on-demand' if something ran into it first, 'pending' before either */
  deferredWasm(): Promise<DeferredState>;
  /** test only: trap the engine's wasm instance (abort() or unreachable);
   * resolves with the error the request got, once the store is idle again */
  debugTrap(kind: 'abort' | 'unreachable'): Promise<string>;
}

declare global {
  interface Window {
    __slubviz?: SlubvizTestHook;
  }
}

export function summarize(st: AppState, restarts = 0): StateSummary {
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
    notice: st.notice,
    restarts,
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
    traceRef: st.traceRef,
    traceName: st.traceName,
    importing: st.importing,
    importView: st.importView
      ? st.importView.result.ok
        ? {
            ok: true,
            open: st.importView.open,
            format: st.importView.result.meta.summary.format,
            events: st.importView.result.meta.summary.events,
            kept: st.importView.result.meta.summary.kept,
            ops: st.importView.result.meta.summary.ops,
            badLines: st.importView.result.meta.summary.bad_lines,
            ms: st.importView.result.ms,
          }
        : { ok: false, open: false, error: st.importView.result.error }
      : null,
    stored: st.stored.map((m) => ({ id: m.id, name: m.name, ops: m.ops })),
    siteFilter: st.siteFilter,
    schedule: st.config.schedule ?? '',
    scheduleKind: f?.snapshot.config.schedule?.kind ?? '',
    hand: st.hand,
    handNote: st.handNote,
    stopped: f?.stopped ?? false,
    runError: f?.runError ?? '',
    summary,
  };
}

/** main.tsx loads this module (and engine/synth.ts with it) apart from
 * the main chunk: tests and the bench only. */
export function installTestHook(store: Store): void {
  window.__slubviz = {
    version: 1,
    state: () => summarize(store.getState(), store.engine.restarts ?? 0),
    snapshot: () => store.getState().frame?.snapshot ?? null,
    act: (name, ...args) => act(store, name, ...args),
    idle: () => store.idle(),
    dump: (selector = 'main') => {
      const el = document.querySelector(selector);
      return el ? dataDump(el) : [];
    },
    trace: () => store.getState().trace,
    flights: () => [...flightLog],
    synthFtrace: (lines) => synthFtraceBlob(lines),
    liveHandles: () => store.liveHandles(),
    deferredWasm: () => store.engine.call({ type: 'deferredWasm' }),
    debugTrap: async (kind) => {
      const err = await store.engine.call({ type: 'debugTrap', kind }).then(
        () => 'no trap',
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
      await store.idle();
      return err;
    },
  };
}
