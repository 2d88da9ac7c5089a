// The app store: state changes only through the named actions below. The
// same action names are used by the buttons, the keyboard shortcuts
// (keys.ts) and the test hook (window.__slubviz.act).
import type { EngineApi } from '../engine/client';
import type { Breakpoint, Frame, RunMeta } from '../engine/protocol';
import { appendOps, freshHandle, liveHandles, type FreeOp } from './trace';
import { encodeShare, type ShareState } from './url';

export interface ScenarioInfo {
  id: string;
  file: string;
  description: string;
}

export interface Config {
  /** '' = the trace's own preset */
  preset: string;
  /** '' = the trace's own seed */
  seed: string;
  /** switch name -> '0' | '1' | value; missing = the preset's */
  switches: Record<string, string>;
}

export type TextTab = 'slabinfo' | 'sysfs' | 'stats' | 'events';

export interface AppState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  busy: boolean;
  progress: { done: number; total: number; what: string } | null;
  error: string | null;
  scenarios: ScenarioInfo[];
  scenario: string | null;
  /** the trace the session runs (scenario text + free-play ops) */
  trace: string;
  /** free-play ops appended to the base trace */
  freeOps: FreeOp[];
  baseTrace: string;
  config: Config;
  meta: RunMeta | null;
  frame: Frame | null;
  playing: boolean;
  /** micro-steps per second while playing */
  speed: number;
  breakpoint: Breakpoint;
  lastHit: { bp: Breakpoint; seq: number; found: boolean } | null;
  selectedCache: number | null;
  selectedSlab: number | null;
  focusCpu: number | null;
  /** show only this node's CPUs in the per-CPU views */
  focusNode: number | null;
  textTab: TextTab;
  text: string;
  animMs: number;
  fp: { cpu: number; cache: string };
  lastSeekMs: number;
}

export const SPEEDS = [1, 2, 5, 10, 30, 100, 300, 1000, 10000, 100000];
export const PRESETS = ['v5.10', 'v5.11', 'v5.12', 'v6.6', 'v6.8', 'v6.19', 'v7.0-rc1', 'v7.0-rc2+fix1', 'v7.0+fix1+fix2', 'v7.1-candidate'];
export const SWITCHES = ['fix1', 'fix2', 'deferred_freelist', 'batched_partial', 'freelist_random', 'freelist_hardened', 'continue_on_error'];

export function initialState(): AppState {
  return {
    status: 'idle',
    busy: false,
    progress: null,
    error: null,
    scenarios: [],
    scenario: null,
    trace: '',
    baseTrace: '',
    freeOps: [],
    config: { preset: '', seed: '', switches: {} },
    meta: null,
    frame: null,
    playing: false,
    speed: 10,
    breakpoint: { kind: 'alloc_slowpath' },
    lastHit: null,
    selectedCache: null,
    selectedSlab: null,
    focusCpu: null,
    focusNode: null,
    textTab: 'slabinfo',
    text: '',
    animMs: 250,
    fp: { cpu: 0, cache: '' },
    lastSeekMs: 0,
  };
}

/** The `sets` argument of svz_open for a config. */
export function configSets(c: Config): string {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(c.switches)) if (v !== '') lines.push(`${k}=${v}`);
  if (c.seed !== '') lines.push(`seed=${c.seed}`);
  return lines.join('\n');
}

export function parseSets(sets: string): { seed: string; switches: Record<string, string> } {
  const switches: Record<string, string> = {};
  let seed = '';
  for (const l of sets.split('\n')) {
    const m = /^\s*([a-z_0-9]+)\s*=\s*(\S+)\s*$/.exec(l);
    if (!m) continue;
    if (m[1] === 'seed') seed = m[2];
    else switches[m[1]] = m[2];
  }
  return { seed, switches };
}

/** Default cache to show: the first non-kmalloc live cache, else the first live one. */
export function defaultCache(frame: Frame | null): number | null {
  if (!frame) return null;
  const cs = frame.snapshot.caches.filter((c) => c.alive);
  const own = cs.find((c) => !c.kmalloc);
  return (own ?? cs[0])?.id ?? null;
}

export interface Env {
  fetchText(path: string): Promise<string>;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(h: unknown): void;
  now(): number;
}

type Listener = () => void;

export class Store {
  private state: AppState = initialState();
  private listeners = new Set<Listener>();
  private queue: Promise<unknown> = Promise.resolve();
  private timer: unknown = null;
  private opened = 0;

  constructor(
    readonly engine: EngineApi,
    readonly env: Env,
  ) {}

  getState = (): AppState => this.state;

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private set(patch: Partial<AppState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /** Engine work runs one request at a time, in call order. */
  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.queue.then(fn, fn);
    this.queue = p.catch(() => undefined);
    return p;
  }

  /** Wait for every queued engine request. */
  idle(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  private async run(fn: () => Promise<Frame>): Promise<void> {
    await this.enqueue(async () => {
      if (!this.state.frame) return;
      this.set({ busy: true });
      const t0 = this.env.now();
      try {
        const frame = await fn();
        this.applyFrame(frame, this.env.now() - t0);
      } catch (e) {
        this.set({ error: String(e instanceof Error ? e.message : e), playing: false });
      } finally {
        this.set({ busy: false, progress: null });
      }
    });
  }

  private applyFrame(frame: Frame, ms: number): void {
    let sel = this.state.selectedCache;
    if (sel === null || !frame.snapshot.caches.some((c) => c.id === sel && c.alive)) sel = defaultCache(frame);
    let slab = this.state.selectedSlab;
    if (slab !== null && !frame.snapshot.slabs.some((s) => s.id === slab)) slab = null;
    this.set({ frame, selectedCache: sel, selectedSlab: slab, lastSeekMs: ms });
    // the kernel text views follow each position, except while playing
    // (refreshed on pause)
    if (this.state.textTab !== 'events' && !this.state.playing) void this.refreshText();
  }

  // ---- actions -------------------------------------------------------------

  /** Fetch the bundled scenario list. */
  async loadScenarioList(): Promise<void> {
    const list = JSON.parse(await this.env.fetchText('scenarios/index.json')) as ScenarioInfo[];
    this.set({ scenarios: list });
  }

  /** Open a bundled scenario by id (file name without .trace). */
  async loadScenario(id: string, opts: { config?: Config; seq?: number } = {}): Promise<void> {
    this.pause();
    const text = await this.env.fetchText(`scenarios/${id}.trace`);
    await this.openTrace(text, { scenario: id, config: opts.config ?? { preset: '', seed: '', switches: {} }, seq: opts.seq });
  }

  /** Open a trace text (custom or a scenario's), with a config. */
  async openTrace(
    text: string,
    opts: { scenario?: string | null; config?: Config; seq?: number; freeOps?: FreeOp[]; baseTrace?: string; keepSelection?: boolean } = {},
  ): Promise<void> {
    this.pause();
    const config = opts.config ?? this.state.config;
    const token = ++this.opened;
    this.set({
      status: 'loading',
      error: null,
      scenario: opts.scenario === undefined ? this.state.scenario : opts.scenario,
      trace: text,
      baseTrace: opts.baseTrace ?? text,
      freeOps: opts.freeOps ?? [],
      config,
      progress: null,
    });
    await this.enqueue(async () => {
      if (token !== this.opened) return;
      try {
        const r = await this.engine.call(
          { type: 'open', trace: text, preset: config.preset, sets: configSets(config) },
          (done, total, what) => this.set({ progress: { done, total, what } }),
        );
        this.set({
          status: 'ready',
          meta: r.meta,
          frame: r.frame,
          progress: null,
          lastHit: null,
          ...(opts.keepSelection ? {} : { selectedSlab: null, focusCpu: null, focusNode: null, selectedCache: null }),
        });
        this.applyFrame(r.frame, 0);
        const caches = r.frame.snapshot.caches.filter((c) => c.alive && !c.kmalloc);
        if (!caches.some((c) => c.name === this.state.fp.cache))
          this.set({ fp: { cpu: Math.min(this.state.fp.cpu, r.frame.snapshot.topology.nr_cpus - 1), cache: caches[0]?.name ?? '' } });
      } catch (e) {
        this.set({ status: 'error', error: e instanceof Error ? e.message : String(e), frame: null, meta: null, progress: null });
      }
    });
    if (opts.seq !== undefined && opts.seq > 0) await this.seekSeq(opts.seq);
  }

  /** Change the config and restart the run from the start. */
  async setConfig(patch: Partial<Config>): Promise<void> {
    const config = { ...this.state.config, ...patch, switches: { ...this.state.config.switches, ...(patch.switches ?? {}) } };
    await this.openTrace(this.state.trace, { config, freeOps: this.state.freeOps, baseTrace: this.state.baseTrace });
  }

  async restart(): Promise<void> {
    await this.openTrace(this.state.trace, { freeOps: this.state.freeOps, baseTrace: this.state.baseTrace });
  }

  stepForward = (): Promise<void> => this.run(() => this.engine.call({ type: 'step', count: 1 }));

  stepBack = (): Promise<void> =>
    this.run(() => this.engine.call({ type: 'seek', seq: Math.max(0, (this.state.frame?.seq ?? 0) - 1) }));

  stepOp = (): Promise<void> => this.run(() => this.engine.call({ type: 'stepOp', count: 1 }));

  /** Back to the start of the op in flight, or of the previous op. */
  opBack = (): Promise<void> =>
    this.run(() => {
      const f = this.state.frame!;
      const op = f.inflight > 0 ? f.opsDone : Math.max(0, f.opsDone - 1);
      return this.engine.call({ type: 'seekOp', op });
    });

  /** Position at the start of op `op` (op ops done). */
  jumpToOp = (op: number): Promise<void> => this.run(() => this.engine.call({ type: 'seekOp', op }));

  seekSeq = (seq: number): Promise<void> => this.run(() => this.engine.call({ type: 'seek', seq }));

  toStart = (): Promise<void> => this.jumpToOp(0);
  toEnd = (): Promise<void> => this.jumpToOp(this.state.meta?.opsTotal ?? 0);

  setBreakpoint = (bp: Breakpoint): void => this.set({ breakpoint: bp });

  /** Run to the next step matching the breakpoint (the current one by default). */
  runToBreakpoint = (bp?: Breakpoint): Promise<void> => {
    this.pause();
    const b = bp ?? this.state.breakpoint;
    if (bp) this.set({ breakpoint: bp });
    return this.run(async () => {
      const f = await this.engine.call({ type: 'runUntil', bp: b }, (done, total, what) =>
        this.set({ progress: { done, total, what } }),
      );
      this.set({ lastHit: { bp: b, seq: f.seq, found: !!f.hit } });
      return f;
    });
  };

  play = (): void => {
    if (this.state.playing || !this.state.frame) return;
    this.set({ playing: true });
    this.lastTick = this.env.now();
    this.carry = 0;
    this.tick(0);
  };

  pause = (): void => {
    if (this.timer !== null) this.env.clearTimeout(this.timer);
    this.timer = null;
    if (this.state.playing) {
      this.set({ playing: false });
      void this.refreshText();
    }
  };

  togglePlay = (): void => (this.state.playing ? this.pause() : this.play());

  private lastTick = 0;
  private carry = 0;

  /** Playing: steps owed since the last tick (speed x elapsed time) run as
   * one batch, then the next tick is scheduled; a slow frame makes the next
   * batch bigger instead of slowing the run down. */
  private tick(delay: number): void {
    this.timer = this.env.setTimeout(async () => {
      this.timer = null;
      if (!this.state.playing) return;
      const now = this.env.now();
      this.carry += (this.state.speed * Math.min(500, now - this.lastTick)) / 1000;
      this.lastTick = now;
      const batch = Math.floor(this.carry);
      if (batch < 1) {
        this.tick(Math.max(1, Math.ceil(((1 - this.carry) * 1000) / this.state.speed)));
        return;
      }
      this.carry -= batch;
      const before = this.state.frame?.seq;
      await this.run(() => this.engine.call({ type: 'step', count: batch }));
      const f = this.state.frame;
      if (!f || f.seq === before || f.stopped || f.opsDone >= f.opsTotal) {
        this.pause();
        return;
      }
      if (this.state.playing) this.tick(16);
    }, delay);
  }

  setSpeed = (speed: number): void => this.set({ speed: Math.max(1, speed) });
  faster = (): void => {
    const i = SPEEDS.findIndex((s) => s > this.state.speed);
    if (i >= 0) this.setSpeed(SPEEDS[i]);
  };
  slower = (): void => {
    const smaller = SPEEDS.filter((s) => s < this.state.speed);
    if (smaller.length) this.setSpeed(smaller[smaller.length - 1]);
  };

  selectCache = (id: number | null): void => {
    this.set({ selectedCache: id, selectedSlab: null });
    void this.refreshText();
  };
  selectSlab = (id: number | null): void => this.set({ selectedSlab: id });
  selectCpu = (cpu: number | null): void => this.set({ focusCpu: cpu });
  selectNode = (node: number | null): void => this.set({ focusNode: node });
  setAnim = (ms: number): void => this.set({ animMs: ms });
  setTextTab = (tab: TextTab): void => {
    this.set({ textTab: tab });
    void this.refreshText();
  };

  async refreshText(): Promise<void> {
    const tab = this.state.textTab;
    if (tab === 'events' || !this.state.frame) return;
    const cache = this.state.frame.snapshot.caches.find((c) => c.id === this.state.selectedCache)?.name;
    const text = await this.enqueue(() =>
      this.engine.call({ type: 'text', what: tab, cache }).catch((e: unknown) => `error: ${String(e)}`),
    );
    if (this.state.textTab === tab) this.set({ text });
  }

  setFreePlay = (patch: Partial<AppState['fp']>): void => this.set({ fp: { ...this.state.fp, ...patch } });

  /** Free play: append ops to the trace, re-open it and run to its new end. */
  private async freeAppend(ops: FreeOp[]): Promise<void> {
    const freeOps = [...this.state.freeOps, ...ops];
    const text = appendOps(this.state.baseTrace, freeOps);
    await this.openTrace(text, { freeOps, baseTrace: this.state.baseTrace, keepSelection: true });
    if (this.state.status === 'ready') await this.toEnd();
  }

  freeAlloc = async (): Promise<string> => {
    const { cpu, cache } = this.state.fp;
    const handle = freshHandle(this.state.trace);
    await this.freeAppend([{ cpu, op: 'alloc', cache, handle }]);
    return handle;
  };

  freeFree = async (handle?: string): Promise<void> => {
    const live = this.liveHandles();
    const { cpu } = this.state.fp;
    const h = handle ? live.find((x) => x.handle === handle) : live[live.length - 1];
    if (!h || h.cache === null) return;
    await this.freeAppend([{ cpu, op: 'free', cache: h.cache, handle: h.handle }]);
  };

  liveHandles(): { handle: string; cache: string | null }[] {
    return liveHandles(this.state.trace);
  }

  /** The share link hash for the current state. */
  shareHash = (): Promise<string> => {
    const s = this.state;
    const st: ShareState = { seq: s.frame?.seq ?? 0 };
    if (s.scenario && s.freeOps.length === 0) st.scenario = s.scenario;
    else st.trace = s.trace;
    if (s.config.preset) st.preset = s.config.preset;
    const sets = configSets(s.config);
    if (sets) st.sets = sets;
    return encodeShare(st);
  };
}

/** The actions, by name: what buttons, shortcuts and tests call. */
export type ActionName =
  | 'stepForward' | 'stepBack' | 'stepOp' | 'opBack' | 'jumpToOp' | 'seekSeq' | 'toStart' | 'toEnd'
  | 'play' | 'pause' | 'togglePlay' | 'faster' | 'slower' | 'setSpeed' | 'runToBreakpoint' | 'setBreakpoint'
  | 'selectCache' | 'selectSlab' | 'selectCpu' | 'selectNode' | 'setTextTab' | 'setAnim' | 'freeAlloc' | 'freeFree'
  | 'setFreePlay' | 'restart' | 'setConfig' | 'loadScenario' | 'openTrace';

export const ACTIONS: readonly ActionName[] = [
  'stepForward', 'stepBack', 'stepOp', 'opBack', 'jumpToOp', 'seekSeq', 'toStart', 'toEnd',
  'play', 'pause', 'togglePlay', 'faster', 'slower', 'setSpeed', 'runToBreakpoint', 'setBreakpoint',
  'selectCache', 'selectSlab', 'selectCpu', 'selectNode', 'setTextTab', 'setAnim', 'freeAlloc', 'freeFree',
  'setFreePlay', 'restart', 'setConfig', 'loadScenario', 'openTrace',
];

export async function act(store: Store, name: ActionName, ...args: unknown[]): Promise<unknown> {
  const fn = (store as unknown as Record<string, (...a: unknown[]) => unknown>)[name];
  if (typeof fn !== 'function') throw new Error(`no action ${name}`);
  const r = await fn.apply(store, args);
  await store.idle();
  return r;
}
