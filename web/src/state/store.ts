// The app store: state changes only through the named actions below. The
// same action names are used by the buttons, the keyboard shortcuts
// (keys.ts) and the test hook (window.__slubviz.act).
import { EngineCrash, type EngineApi } from '../engine/client';
import type { Breakpoint, EndHandle, Frame, HandRefusal, ImportFail, ImportOk, ImportResult, RunMeta } from '../engine/protocol';
import type { StoredMeta } from '../engine/storage';
import type { Manifest, ManifestPreset, ManifestSwitch } from '../engine/types';
import { appendOps, freshHandle, type FreeOp } from './trace';
import { DEFAULT_SCENARIO, encodeShare, scenarioPath, inflateLink, LinkError, parseShare, type ShareState } from './url';
import { HandError, parseHand } from '../engine/hand';
import { t } from '../i18n';

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
  /** the schedule, as svz_schedule_parse reads it ("serial", "round-robin",
   * "random seed=5", "timed", "explicit"); '' or absent = the trace's own */
  schedule?: string;
}

export type TextTab = 'slabinfo' | 'sysfs' | 'stats' | 'events';

export interface SampleInfo {
  file: string;
  /** what the sample is (its first comment lines) */
  description: string;
  bytes: number;
}

/** An import in flight: bytes read of the source, lines seen. */
export interface ImportProgress {
  name: string;
  done: number;
  total: number;
  lines: number;
  what: string;
  /** progress messages received (a large file sends many) */
  updates: number;
}

/** The import result shown (summary before replay, or the errors). */
export interface ImportView {
  result: ImportResult;
  /** the trace is the one open now */
  open: boolean;
}

/** Largest imported trace text a share link carries. */
export const SHARE_MAX_BYTES = 256 << 10;

/** ms of pre-pass an open runs before the first screen; a longer one goes
 * on in the background (engine.ts) */
export const OPEN_FOREGROUND_MS = 40;

export interface AppState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  busy: boolean;
  progress: { done: number; total: number; what: string } | null;
  error: string | null;
  /** something the user should know that is not an error of the run: the
   * engine restarted after a crash, a bad share link */
  notice: { kind: 'crash' | 'link' | 'restart'; text: string } | null;
  scenarios: ScenarioInfo[];
  /** the core's presets and svz_config_set keys (svz_manifest_json), in
   * its order; empty until loadManifest */
  presets: ManifestPreset[];
  switches: ManifestSwitch[];
  /** the import panel's format picker, and its skip reasons' texts */
  importFormats: Manifest['import_formats'];
  skipReasons: Manifest['import_skip_reasons'];
  scenario: string | null;
  /** the trace the session runs (scenario text + free-play ops); '' for an
   * imported trace, which the worker holds (traceRef) */
  trace: string;
  /** free-play ops appended to the base trace */
  freeOps: FreeOp[];
  baseTrace: string;
  /** an imported trace held by the worker ("stored:<id>"), else null */
  traceRef: string | null;
  /** the imported trace's name (file name) */
  traceName: string | null;
  samples: SampleInfo[];
  importing: ImportProgress | null;
  importView: ImportView | null;
  /** traces kept in IndexedDB, newest first */
  stored: StoredMeta[];
  storedError: string | null;
  /** call-site filter of the slab detail ('' = all) */
  siteFilter: string;
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
  /** A/B compare: side B's config (side A is `config`), null when off */
  compare: Config | null;
  /** the steps chosen by hand in the run (engine/hand.ts text form, '' none) */
  hand: string;
  /** why the last "step this CPU" did not step, or what became of a
   * link's hand steps; null when there is nothing to say */
  handNote: HandNote | null;
  /** events the lanes view shows (the frame's lanes window; 0 = none) */
  lanesWindow: number;
}

/** What to say about steps chosen by hand: a step refused (why, which
 * CPU), a link's steps that could not run from `seq` on, or whose text
 * was bad (why). */
export type HandNote =
  | { kind: 'refused'; why: HandRefusal; cpu: number }
  | { kind: 'dropped'; seq: number }
  | { kind: 'badLink'; why: string };

/** Default window of the CPU lanes (steps). */
export const LANES_WINDOW = 120;
export const LANES_WINDOWS = [40, 120, 400, 1000];

export const SPEEDS = [1, 2, 5, 10, 30, 100, 300, 1000, 10000, 100000];

export function initialState(): AppState {
  return {
    status: 'idle',
    busy: false,
    progress: null,
    error: null,
    notice: null,
    scenarios: [],
    presets: [],
    switches: [],
    importFormats: [],
    skipReasons: [],
    scenario: null,
    trace: '',
    baseTrace: '',
    freeOps: [],
    traceRef: null,
    traceName: null,
    samples: [],
    importing: null,
    importView: null,
    stored: [],
    storedError: null,
    siteFilter: '',
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
    compare: null,
    hand: '',
    handNote: null,
    lanesWindow: LANES_WINDOW,
  };
}

/** The `sets` argument of svz_open for a config. */
export function configSets(c: Config): string {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(c.switches)) if (v !== '') lines.push(`${k}=${v}`);
  if (c.seed !== '') lines.push(`seed=${c.seed}`);
  if (c.schedule) lines.push(`schedule=${c.schedule}`);
  return lines.join('\n');
}

/** A config from a preset and a `sets` text (share links). */
export function configOf(preset: string, sets: string): Config {
  return { preset, ...parseSets(sets) };
}

export function parseSets(sets: string): { seed: string; switches: Record<string, string>; schedule?: string } {
  const switches: Record<string, string> = {};
  let seed = '';
  let schedule: string | undefined;
  for (const l of sets.split('\n')) {
    // the schedule's value may have words ("random seed=5")
    const sc = /^\s*schedule\s*=\s*(\S.*?)\s*$/.exec(l);
    if (sc) {
      schedule = normalSchedule(sc[1]);
      continue;
    }
    const m = /^\s*([a-z_0-9]+)\s*=\s*(\S+)\s*$/.exec(l);
    if (!m) continue;
    if (m[1] === 'seed') seed = m[2];
    else switches[m[1]] = m[2];
  }
  return schedule ? { seed, switches, schedule } : { seed, switches };
}

/** A schedule spec in one spelling: words single-spaced ("random  seed=5"
 * -> "random seed=5"). The core checks it (svz_schedule_parse). */
export function normalSchedule(spec: string): string {
  return spec.trim().split(/\s+/).join(' ');
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
  /** binary-safe fetch (samples); defaults to fetchText */
  fetchBlob?(path: string): Promise<Blob>;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(h: unknown): void;
  now(): number;
  /** calls fn at the next animation frame; defaults to the page's
   * requestAnimationFrame (none under Node: a 16 ms timer instead) */
  frame?(fn: () => void): void;
  /** the code that draws an import's result (views/TracesBody.tsx): the
   * result is shown only once it is in, so the page drawn does not depend
   * on when it arrived; loaded from the import's start */
  importResultCode?(): Promise<void>;
}

type Listener = () => void;

/** What re-opens the last run that showed a frame, at that frame. */
interface GoodRun {
  scenario: string | null;
  trace: string;
  baseTrace: string;
  traceRef: string | null;
  traceName: string | null;
  freeOps: FreeOp[];
  config: Config;
  hand: string;
  seq: number;
}

export class Store {
  private state: AppState = initialState();
  private listeners = new Set<Listener>();
  private queue: Promise<unknown> = Promise.resolve();
  private timer: unknown = null;
  private opened = 0;
  private good: GoodRun | null = null;
  private recovering = false;
  /** a share link's trace being inflated: set to cancel it */
  private linkInflate: { cancelled: boolean } | null = null;
  /** cancels the import in flight (its request's signal) */
  private importAbort: AbortController | null = null;

  constructor(
    readonly engine: EngineApi,
    readonly env: Env,
  ) {
    engine.onCrash?.((reason) => this.engineCrashed(reason));
  }

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
      // playing, busy is not shown (views/hooks.ts): set on and off around
      // every step it only woke every subscriber twice a frame
      if (!this.state.playing) this.set({ busy: true });
      const t0 = this.env.now();
      try {
        const frame = await fn();
        this.applyFrame(frame, this.env.now() - t0);
      } catch (e) {
        // a crash: engineCrashed() restores the run and says so
        if (!(e instanceof EngineCrash)) this.set({ error: String(e instanceof Error ? e.message : e), playing: false });
      } finally {
        if (this.state.busy || this.state.progress) this.set({ busy: false, progress: null });
      }
    });
  }

  private applyFrame(frame: Frame, ms: number): void {
    let sel = this.state.selectedCache;
    if (sel === null || !frame.snapshot.caches.some((c) => c.id === sel && c.alive)) sel = defaultCache(frame);
    let slab = this.state.selectedSlab;
    if (slab !== null && !frame.snapshot.slabs.some((s) => s.id === slab)) slab = null;
    this.set({ frame, selectedCache: sel, selectedSlab: slab, lastSeekMs: ms });
    const st = this.state;
    this.good = {
      scenario: st.scenario, trace: st.trace, baseTrace: st.baseTrace, traceRef: st.traceRef, traceName: st.traceName,
      freeOps: st.freeOps, config: st.config, hand: st.hand, seq: frame.seq,
    };
    // the kernel text views follow each position, except while playing
    // (refreshed on pause)
    if (this.state.textTab !== 'events' && !this.state.playing) void this.refreshText();
  }

  /** The engine crashed (a wasm trap) and the client restarted it: open
   * the last run that showed a frame again, at that frame. A second crash
   * while doing so gives up (status error). */
  private engineCrashed(reason: string): void {
    this.pause();
    const g = this.good;
    if (this.recovering || !g) {
      this.set({
        status: 'error',
        frame: null,
        busy: false,
        progress: null,
        error: t(this.recovering ? 'notice.crashedAgain' : 'notice.crashedFresh', { reason }),
      });
      return;
    }
    this.recovering = true;
    const where = g.traceName ?? (g.scenario ? t('notice.scenario', { name: g.scenario }) : t('notice.theTrace'));
    const crashed = t('notice.crashed', { reason });
    this.set({ notice: { kind: 'crash', text: crashed + t('notice.restoring', { where, seq: g.seq }) }, error: null });
    const opts = { config: g.config, freeOps: g.freeOps, keepSelection: true, seq: g.seq, hand: g.hand };
    const done = g.traceRef
      ? this.openRef(g.traceRef, { ...opts, name: g.traceName ?? undefined })
      : this.openTrace(g.trace, { ...opts, scenario: g.scenario, baseTrace: g.baseTrace });
    void done
      .then(() => {
        const st = this.state;
        const ok = st.status === 'ready' && st.frame?.seq === g.seq;
        const text = ok
          ? crashed + t('notice.restored', { where, seq: g.seq })
          : crashed + t(st.error ? 'notice.notRestoredWhy' : 'notice.notRestored', { where, error: st.error ?? '' });
        this.set({ notice: { kind: 'crash', text } });
      })
      .finally(() => (this.recovering = false));
  }

  dismissNotice = (): void => this.set({ notice: null });

  // ---- actions -------------------------------------------------------------

  /** The presets, switches, import formats and skip reasons the core has
   * (its manifest, via the worker). */
  async loadManifest(): Promise<void> {
    await this.manifest();
  }

  private manifestP: Promise<Manifest | null> | null = null;

  /** The core's manifest, asked once (null when it could not be read:
   * `error` says why, and the next call asks again). */
  manifest = (): Promise<Manifest | null> => {
    this.manifestP ??= this.fetchManifest().then((m) => {
      if (!m) this.manifestP = null;
      return m;
    });
    return this.manifestP;
  };

  private async fetchManifest(): Promise<Manifest | null> {
    for (let tries = 0; ; tries++) {
      try {
        const m = await this.engine.call({ type: 'manifest' });
        this.set({ presets: m.presets, switches: m.switches, importFormats: m.import_formats, skipReasons: m.import_skip_reasons });
        return m;
      } catch (e) {
        // a crash while starting: the client restarts the engine; ask the new one once
        if (e instanceof EngineCrash && tries === 0) continue;
        this.set({ error: `The engine's presets and switches could not be read: ${e instanceof Error ? e.message : String(e)}` });
        return null;
      }
    }
  }

  /** Fetch the bundled scenario list. */
  async loadScenarioList(): Promise<void> {
    const list = JSON.parse(await this.env.fetchText('scenarios/index.json')) as ScenarioInfo[];
    this.set({ scenarios: list });
  }

  /** Open a bundled scenario by id (file name without .trace). */
  async loadScenario(id: string, opts: { config?: Config; seq?: number; hand?: string } = {}): Promise<void> {
    this.pause();
    const text = await this.env.fetchText(scenarioPath(id));
    await this.openTrace(text, { scenario: id, config: opts.config ?? { preset: '', seed: '', switches: {} }, seq: opts.seq, hand: opts.hand });
  }

  /** Open a share link (the URL hash, see url.ts): its scenario, or its
   * trace, inflated like an import (progress in `importing`, cancel with
   * cancelImport, capped), with its config, cache, A/B compare and
   * position. A bad link (unknown scenario, damaged or too big a trace,
   * cancelled) says why in a notice and opens `fallback`, or with
   * fallback null (a link pasted while a run is open) leaves the run open. */
  openLink = async (hash: string, fallback: string | null = DEFAULT_SCENARIO): Promise<void> => {
    const share = parseShare(hash);
    const config = configOf(share.preset ?? '', share.sets ?? '');
    // steps chosen by hand: a bad text is left out (and said so)
    let hand: string | undefined;
    let handNote: HandNote | null = null;
    if (share.hand) {
      try {
        parseHand(share.hand);
        hand = share.hand;
      } catch (e) {
        handNote = { kind: 'badLink', why: e instanceof HandError ? e.message : String(e) };
      }
    }
    const bad = async (why: string) => {
      this.set({ notice: { kind: 'link', text: `${why}. ` + (fallback === null ? t('notice.runStaysOpen') : t('notice.openedInstead', { name: fallback })) } });
      if (fallback !== null) await this.loadScenario(fallback);
    };
    const done = async () => {
      this.set({ compare: share.compare ? configOf(share.compare.preset, share.compare.sets) : null });
      if (handNote) this.set({ handNote });
      const c = share.cache && this.state.frame?.snapshot.caches.find((x) => x.alive && x.name === share.cache);
      if (c) this.selectCache(c.id);
    };
    if (share.code !== undefined) {
      let text: string;
      const state = { cancelled: false };
      this.linkInflate = state;
      const name = 'share link';
      this.set({ importing: { name, done: 0, total: share.code.length, lines: 0, what: 'link', updates: 0 } });
      try {
        text = await inflateLink(share.code, {
          cancelled: () => state.cancelled,
          progress: (done, total) => {
            const u = this.state.importing?.updates ?? 0;
            this.set({ importing: { name, done, total, lines: 0, what: 'link', updates: u + 1 } });
          },
        });
      } catch (e) {
        return bad(`This share link cannot be opened: ${e instanceof LinkError ? e.message : String(e)}`);
      } finally {
        this.linkInflate = null;
        this.set({ importing: null });
      }
      await this.openTrace(text, { scenario: null, config, seq: share.seq, hand });
      return done();
    }
    const id = share.scenario ?? fallback;
    if (id === null) return bad('This link names no scenario and no trace');
    if (!this.state.scenarios.some((x) => x.id === id)) return bad(`This link names a scenario "${id}" that does not exist`);
    await this.loadScenario(id, { config, seq: share.seq, hand });
    return done();
  };

  /** A/B compare: run the same trace under `config` beside this one (side
   * B, views/Compare.tsx), or stop comparing (null). */
  setCompare = (config: Partial<Config> | null): void =>
    this.set({ compare: config ? { preset: '', seed: '', switches: {}, ...config } : null });

  /** Open a trace text (custom or a scenario's), with a config. */
  async openTrace(
    text: string,
    opts: { scenario?: string | null; config?: Config; seq?: number; freeOps?: FreeOp[]; baseTrace?: string; keepSelection?: boolean; hand?: string } = {},
  ): Promise<void> {
    await this.openSource({ text }, opts);
  }

  /** Open a trace the worker holds (an import, "stored:<id>"). */
  async openRef(
    ref: string,
    opts: { name?: string; config?: Config; seq?: number; freeOps?: FreeOp[]; keepSelection?: boolean; hand?: string } = {},
  ): Promise<void> {
    await this.openSource({ ref, name: opts.name ?? this.state.traceName ?? ref }, { ...opts, scenario: null });
  }

  private async openSource(
    src: { text: string } | { ref: string; name: string },
    opts: { scenario?: string | null; config?: Config; seq?: number; freeOps?: FreeOp[]; baseTrace?: string; keepSelection?: boolean; hand?: string } = {},
  ): Promise<void> {
    this.pause();
    const config = opts.config ?? this.state.config;
    const token = ++this.opened;
    const freeOps = opts.freeOps ?? [];
    const isRef = 'ref' in src;
    this.set({
      status: 'loading',
      error: null,
      scenario: isRef ? null : opts.scenario === undefined ? this.state.scenario : opts.scenario,
      trace: isRef ? '' : src.text,
      baseTrace: isRef ? '' : opts.baseTrace ?? src.text,
      traceRef: isRef ? src.ref : null,
      traceName: isRef ? src.name : null,
      freeOps,
      config,
      progress: null,
      hand: '',
      handNote: null,
    });
    if (this.state.importView) {
      const r = this.state.importView.result;
      this.set({ importView: { ...this.state.importView, open: isRef && r.ok && r.ref === src.ref } });
    }
    await this.enqueue(async () => {
      if (token !== this.opened) return;
      try {
        const r = await this.engine.call(
          isRef
            ? { type: 'open', trace: '', ref: src.ref, append: appendOps('', freeOps), preset: config.preset, sets: configSets(config), hand: opts.hand, lanes: this.state.lanesWindow, foregroundMs: OPEN_FOREGROUND_MS }
            : { type: 'open', trace: src.text, preset: config.preset, sets: configSets(config), hand: opts.hand, lanes: this.state.lanesWindow, foregroundMs: OPEN_FOREGROUND_MS },
          this.showProgress,
        );
        this.set({
          status: 'ready',
          meta: r.meta,
          frame: r.frame,
          progress: null,
          lastHit: null,
          hand: r.hand,
          handNote: r.meta.handDropped >= 0 ? { kind: 'dropped', seq: r.meta.handDropped } : null,
          ...(opts.keepSelection ? {} : { selectedSlab: null, focusCpu: null, focusNode: null, selectedCache: null }),
        });
        this.applyFrame(r.frame, 0);
        // a preset's former name (an old link or trace) runs under its
        // current one: the picker and the share link say that one
        const ran = r.frame.snapshot.config.preset;
        if (config.preset && ran && ran !== config.preset && this.state.config.preset === config.preset)
          this.set({ config: { ...this.state.config, preset: ran } });
        const caches = r.frame.snapshot.caches.filter((c) => c.alive && !c.kmalloc);
        if (!caches.some((c) => c.name === this.state.fp.cache))
          this.set({ fp: { cpu: Math.min(this.state.fp.cpu, r.frame.snapshot.topology.nr_cpus - 1), cache: caches[0]?.name ?? '' } });
        if (!r.meta.prepassDone) this.prepassing = this.followPrepass(token);
      } catch (e) {
        // a newer open (the crash recovery's, among others) owns the state
        if (token !== this.opened) return;
        this.set({ status: 'error', error: e instanceof Error ? e.message : String(e), frame: null, meta: null, progress: null });
      }
    });
    if (opts.seq !== undefined && opts.seq > 0) await this.seekSeq(opts.seq);
  }

  /** The background pre-pass of the run opened as `token` (beside the
   * queue: the engine runs it while idle): its progress, then the final
   * meta (samples, checkpoints, seqTotal). */
  private prepassing: Promise<void> = Promise.resolve();

  private async followPrepass(token: number): Promise<void> {
    let meta: RunMeta | null = null;
    try {
      meta = await this.engine.call({ type: 'prepass' }, (done, total, what) => {
        if (token === this.opened && !this.state.busy) this.showProgress(done, total, what);
      });
    } catch {
      // a crash: engineCrashed() opens the run again (and follows it)
    }
    if (token !== this.opened) return;
    // a hand step finishes the pre-pass itself and answers the meta first
    if (meta && !this.state.meta?.prepassDone) this.set({ meta });
    if (!this.state.busy) this.set({ progress: null });
  }

  /** Re-open the current trace (with its free-play ops); the steps chosen
   * by hand only with `hand` (another config or more ops make another run). */
  private async reopen(opts: { config?: Config; freeOps?: FreeOp[]; keepSelection?: boolean; hand?: string } = {}): Promise<void> {
    const s = this.state;
    const freeOps = opts.freeOps ?? s.freeOps;
    if (s.traceRef) await this.openRef(s.traceRef, { ...opts, freeOps, name: s.traceName ?? undefined });
    else {
      const text = opts.freeOps ? appendOps(s.baseTrace, freeOps) : s.trace;
      await this.openTrace(text, { ...opts, freeOps, baseTrace: s.baseTrace });
    }
  }

  /** Change the config and restart the run from the start. */
  async setConfig(patch: Partial<Config>): Promise<void> {
    const config = { ...this.state.config, ...patch, switches: { ...this.state.config.switches, ...(patch.switches ?? {}) } };
    // another preset runs the trace again from op 0: said in a notice,
    // unless the run was there already
    const f = this.state.frame;
    const moved = !!f && (f.seq > 0 || f.opsDone > 0);
    const presetChanged = patch.preset !== undefined && patch.preset !== this.state.config.preset;
    await this.reopen({ config });
    if (presetChanged && moved && !this.state.error && this.state.frame) {
      const preset = this.state.frame.snapshot.config.preset || config.preset;
      this.set({ notice: { kind: 'restart', text: t('notice.presetRestart', { preset }) } });
    }
  }

  async restart(): Promise<void> {
    await this.reopen({ hand: this.state.hand || undefined });
  }

  /** The schedule (svz_schedule_parse's words; '' = the trace's own): the
   * trace runs again from the start under it. */
  setSchedule = (schedule: string): Promise<void> => this.setConfig({ schedule: normalSchedule(schedule) });

  /** Step this CPU: one micro-step of `cpu`, chosen by hand instead of the
   * schedule's pick. It becomes part of the run (step back, seeks and
   * share links replay it) and replaces the steps chosen after this one. */
  stepCpu = (cpu: number): Promise<void> => {
    this.pause();
    return this.run(async () => {
      const r = await this.engine.call({ type: 'stepCpu', cpu: Number(cpu) }, (done, total, what) =>
        this.set({ progress: { done, total, what } }),
      );
      this.set({ meta: r.meta, hand: r.hand, handNote: r.refused ? { kind: 'refused', why: r.refused, cpu: Number(cpu) } : null });
      return r.frame;
    });
  };

  /** Forget the steps chosen by hand: the schedule's run again (at the
   * same step, or at the first hand step if past it). */
  clearHand = (): Promise<void> =>
    this.run(async () => {
      const r = await this.engine.call({ type: 'clearHand' }, (done, total, what) => this.set({ progress: { done, total, what } }));
      this.set({ meta: r.meta, hand: r.hand, handNote: null });
      return r.frame;
    });

  /** The run so far as a trace `steps` line (every micro-step's CPU). */
  stepsLine = (): Promise<string> =>
    this.enqueue(async () => {
      const line = await this.engine.call({ type: 'stepsLine' });
      // building it may have replayed: the frame is the same position's
      return line;
    });

  /** How many of the last steps the lanes view shows (0: none). */
  setLanesWindow = (n: number): Promise<void> => {
    this.set({ lanesWindow: Math.max(0, Math.floor(n)) });
    return this.run(() => this.engine.call({ type: 'lanes', window: this.state.lanesWindow }));
  };

  dismissHandNote = (): void => this.set({ handNote: null });

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

  /** Position at the start of op `op` (op ops done); past the pre-pass's
   * frontier it runs the pre-pass on to there first (progress). */
  jumpToOp = (op: number): Promise<void> => this.run(() => this.engine.call({ type: 'seekOp', op }, this.showProgress));

  seekSeq = (seq: number): Promise<void> => this.run(() => this.engine.call({ type: 'seek', seq }, this.showProgress));

  private showProgress = (done: number, total: number, what: string): void => this.set({ progress: { done, total, what } });

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
    this.playGen++;
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
  /** which play() a waiting tick belongs to (a pause and play between make it stale) */
  private playGen = 0;

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
      if (!this.state.playing) return;
      // the next batch is asked for once this one is drawn (after the next
      // animation frame's paint) and no sooner than 16 ms after it came:
      // at most one snapshot a frame; one that took a frame to draw is
      // followed at once, so the next arrives early in a frame
      const drawnAt = this.env.now();
      const frame = this.env.frame ?? (typeof requestAnimationFrame === 'function' ? requestAnimationFrame : null);
      const gen = this.playGen;
      if (frame) frame(() => gen === this.playGen && this.state.playing && this.tick(Math.max(0, 16 - (this.env.now() - drawnAt))));
      else this.tick(16);
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
    await this.reopen({ freeOps: [...this.state.freeOps, ...ops], keepSelection: true });
    if (this.state.status === 'ready') await this.toEnd();
  }

  freeAlloc = async (): Promise<string> => {
    // the handles live at the end come with the final meta
    await this.prepassing;
    const { cpu, cache } = this.state.fp;
    let handle: string;
    if (this.state.traceRef) {
      // the text is in the worker: avoid the handles live at the end and ours
      const used = new Set([...this.liveHandles().map((h) => h.handle), ...this.state.freeOps.map((o) => o.handle)]);
      let i = 0;
      while (used.has(`fp${i}`)) i++;
      handle = `fp${i}`;
    } else handle = freshHandle(this.state.trace);
    await this.freeAppend([{ cpu, op: 'alloc', cache, handle }]);
    return handle;
  };

  /** Free a handle live at the end of the trace (any handle: plain ops,
   * repeat blocks, imports, kmalloc'ed ones); by default the last one free
   * play allocated, else the last live one. */
  freeFree = async (handle?: string): Promise<void> => {
    await this.prepassing;
    const live = this.liveHandles();
    const { cpu } = this.state.fp;
    let h: EndHandle | undefined;
    if (handle) h = live.find((x) => x.handle === handle);
    else {
      const mine = [...this.state.freeOps].reverse().find((o) => o.op === 'alloc' && live.some((x) => x.handle === o.handle));
      h = mine ? live.find((x) => x.handle === mine.handle) : live[live.length - 1];
    }
    if (!h) return;
    await this.freeAppend([{ cpu, op: h.kmalloc ? 'kfree' : 'free', cache: h.cache, handle: h.handle }]);
  };

  /** Handles live at the end of the trace (from the pre-pass's last snapshot). */
  liveHandles(): EndHandle[] {
    return this.state.meta?.endHandles ?? [];
  }

  /** The share link hash for the current state. An imported trace travels
   * as text when it is small enough (SHARE_MAX_BYTES). */
  shareHash = async (): Promise<string> => {
    const s = this.state;
    const st: ShareState = { seq: s.frame?.seq ?? 0 };
    if (s.traceRef) {
      const text = await this.refText(s.traceRef);
      if (text === null) throw new Error(`${s.traceName ?? 'this trace'} is too large for a share link (over ${SHARE_MAX_BYTES >> 10} KiB); it stays in this browser's stored traces`);
      st.trace = appendOps(text, s.freeOps);
    } else if (s.scenario && s.freeOps.length === 0) st.scenario = s.scenario;
    else st.trace = s.trace;
    if (s.config.preset) st.preset = s.config.preset;
    const sets = configSets(s.config);
    if (sets) st.sets = sets;
    const cache = s.frame?.snapshot.caches.find((c) => c.id === s.selectedCache);
    if (cache && cache.id !== defaultCache(s.frame)) st.cache = cache.name;
    if (s.compare) st.compare = { preset: s.compare.preset, sets: configSets(s.compare) };
    if (s.hand) st.hand = s.hand;
    return encodeShare(st);
  };

  /** The text of a trace the worker holds, up to SHARE_MAX_BYTES (null:
   * larger); asked once per ref (the live URL asks on every step). */
  private refTexts = new Map<string, Promise<string | null>>();
  private refText(ref: string): Promise<string | null> {
    let t = this.refTexts.get(ref);
    if (!t) {
      t = this.engine.call({ type: 'getText', ref, maxBytes: SHARE_MAX_BYTES });
      t.catch(() => this.refTexts.delete(ref));
      this.refTexts.set(ref, t);
    }
    return t;
  }

  // ---- traces: import, samples, storage ---------------------------------------

  /** Fetch the bundled sample traces list (samples/index.json). */
  async loadSampleList(): Promise<void> {
    try {
      const list = JSON.parse(await this.env.fetchText('samples/index.json')) as SampleInfo[];
      this.set({ samples: list });
    } catch (e) {
      console.warn('no sample traces:', e);
    }
  }

  /** The result's view code (env.importResultCode); a failed load shows
   * the result anyway (the view loads it again). */
  private resultCode(): Promise<void> {
    return this.env.importResultCode?.().catch(() => undefined) ?? Promise.resolve();
  }

  /** Import a file (any supported format) in the worker, streamed in
   * chunks; the summary is shown (importView) and the trace stored. It is
   * not opened: replayImport() does that. */
  importFile = async (source: Blob, name = 'trace', format = ''): Promise<ImportResult> => {
    if (this.state.importing) throw new Error('an import is already running');
    this.set({ importing: { name, done: 0, total: source.size, lines: 0, what: 'import', updates: 0 }, importView: null });
    const code = this.resultCode();
    let r: ImportResult;
    const abort = (this.importAbort = new AbortController());
    try {
      const progress = (done: number, total: number, what: string, lines?: number) => {
        const cur = this.state.importing;
        this.set({ importing: { name, done, total, lines: lines ?? cur?.lines ?? 0, what, updates: (cur?.updates ?? 0) + 1 } });
      };
      r = await this.engine.call({ type: 'import', source, name, format, store: true }, progress, abort.signal);
    } catch (e) {
      r = { ok: false, cancelled: false, error: e instanceof Error ? e.message : String(e), name, bytes: source.size, lines: 0 } satisfies ImportFail;
    } finally {
      if (this.importAbort === abort) this.importAbort = null;
    }
    await code;
    this.set({ importing: null, importView: { result: r, open: false } });
    if (r.ok) await this.refreshStored();
    return r;
  };

  importText = (text: string, name = 'pasted text', format = ''): Promise<ImportResult> =>
    this.importFile(new Blob([text], { type: 'text/plain' }), name, format);

  /** Import a bundled sample (samples/FILE). */
  importSample = async (file: string): Promise<ImportResult> => {
    const path = `samples/${file}`;
    const blob = this.env.fetchBlob ? await this.env.fetchBlob(path) : new Blob([await this.env.fetchText(path)]);
    return this.importFile(blob, file);
  };

  cancelImport = async (): Promise<void> => {
    if (this.linkInflate) this.linkInflate.cancelled = true;
    else this.importAbort?.abort();
  };

  /** Replay the import shown in the summary. */
  replayImport = async (): Promise<void> => {
    const v = this.state.importView;
    if (!v || !v.result.ok) return;
    await this.openRef(v.result.ref, { name: v.result.meta.name, config: { preset: '', seed: '', switches: {} } });
  };

  dismissImport = (): void => this.set({ importView: null });

  refreshStored = async (): Promise<void> => {
    try {
      this.set({ stored: await this.engine.call({ type: 'storedList' }), storedError: null });
    } catch (e) {
      this.set({ storedError: e instanceof Error ? e.message : String(e) });
    }
  };

  /** Open a stored trace: its summary is shown and it is replayed. */
  openStored = async (id: string): Promise<void> => {
    const code = this.resultCode();
    let r: { ref: string; meta: StoredMeta };
    try {
      r = await this.engine.call({ type: 'storedOpen', storedId: id });
    } catch (e) {
      this.set({ storedError: e instanceof Error ? e.message : String(e) });
      return;
    }
    const ok: ImportOk = { ok: true, ref: r.ref, meta: r.meta, stored: true, storeError: '', ms: { import: 0, export: 0, store: 0 } };
    await code;
    this.set({ importView: { result: ok, open: false } });
    await this.openRef(r.ref, { name: r.meta.name, config: { preset: '', seed: '', switches: {} } });
  };

  deleteStored = async (id: string): Promise<void> => {
    try {
      this.set({ stored: await this.engine.call({ type: 'storedDelete', storedId: id }), storedError: null });
    } catch (e) {
      this.set({ storedError: e instanceof Error ? e.message : String(e) });
    }
  };

  /** svz_export_v1 of the open session (the trace with its free-play ops). */
  exportV1 = async (): Promise<{ text: string; name: string }> => {
    const r = await this.enqueue(() => this.engine.call({ type: 'export' }));
    const s = this.state;
    const base = (s.traceName ?? s.scenario ?? 'custom').replace(/\.[A-Za-z0-9]+$/, '').replace(/[^A-Za-z0-9._-]+/g, '_');
    return { text: r.text, name: `${base}${s.freeOps.length ? '-freeplay' : ''}.v1.trace` };
  };

  setSiteFilter = (site: string): void => this.set({ siteFilter: site });
}
