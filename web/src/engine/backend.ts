// What the worker does with each request (worker.ts posts the replies; the
// Node tests call it in process): one Engine, the trace texts the worker
// holds for imports (by ref), the streaming import and the trace storage.
//
// Import: the source Blob is read in CHUNK-sized slices and fed to
// svz_import_feed, so a file is never held whole (only the resulting v1
// export is kept, under a ref). Progress goes out after every chunk. The
// import does not touch the Engine's session, so the worker runs it beside
// the engine requests (they interleave at the chunk reads), and a cancel
// (the request's signal) is seen between two chunks. The import's session
// is kept until the next open: replaying it unchanged (its v1 text, no
// other config) adopts that session instead of parsing the text again.
//
// Background pre-pass ('prepass', beside the queue): slices of
// PREPASS_SLICE_MS run while no engine request is running or came in the
// last PREPASS_IDLE_MS (playing goes first), each after a macrotask so
// that requests waiting in the worker's queue run first.
//
// The wasm module's deferred half (a Release build's other era, importers,
// text views: core/wasm/split.mjs) is fetched PREPASS_IDLE_MS after the
// first engine request, so the first screen downloads and compiles only the
// half it runs.
import { Engine, LANES_MAX } from './engine';
import { parseHand } from './hand';
import type { Held, ImportResult, ReplyPayload, RequestBody, RunMeta } from './protocol';
import { lastError, manifest, SlubvizImport, type DeferredHalf, type SlubvizModule, type SlubvizSession } from '../../../core/wasm/slubviz-api';
import type { StoredMeta, TraceStorage } from './storage';
import type { ImportSummary } from './types';

export const CHUNK = 1 << 20;
/** ms of pre-pass a slice runs in the background */
export const PREPASS_SLICE_MS = 30;
/** the background pre-pass waits this long after an engine request */
export const PREPASS_IDLE_MS = 100;

/** A macrotask: messages waiting in the worker's queue run before it. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

export type BackendProgress = (done: number, total: number, what: string, lines?: number) => void;

let seqId = 0;
function newId(now: number): string {
  return `${now.toString(36)}-${(seqId++).toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class Backend {
  readonly engine: Engine;
  /** trace texts held for refs ("stored:<id>") */
  private texts = new Map<string, string>();
  private openRef: string | null = null;
  private pendingRef: string | null = null;
  private importing = false;
  /** the session of the last import (its ref), until the next open */
  private imported: { ref: string; session: SlubvizSession } | null = null;
  /** engine requests running (an open awaits its text) */
  private engineBusy = 0;
  /** when the last engine request ended */
  private engineAt = 0;

  /** the module's deferred half (null: tests' in-process modules) */
  private readonly deferred: DeferredHalf | null;
  private prefetchStarted = false;
  private readonly now: () => number;
  /** bytes read from the source per svz_import_feed */
  readonly chunk: number;

  constructor(
    readonly mod: SlubvizModule,
    readonly storage: TraceStorage,
    opts: { engine?: Engine; now?: () => number; chunk?: number; deferred?: DeferredHalf } = {},
  ) {
    this.engine = opts.engine ?? new Engine(mod);
    this.deferred = opts.deferred ?? null;
    this.now = opts.now ?? (() => performance.now());
    this.chunk = opts.chunk ?? CHUNK;
  }

  /** Requests that may run beside the engine's (not queued behind them). */
  static concurrent(type: RequestBody['type']): boolean {
    return type === 'import' || type === 'held' || type === 'manifest' || type === 'prepass' || type === 'deferredWasm';
  }

  async handle<T extends RequestBody>(req: T, progress?: BackendProgress, signal?: AbortSignal): Promise<ReplyPayload[T['type']]> {
    const body = req as RequestBody;
    if (body.type === 'prepass') return (await this.background(progress, signal)) as ReplyPayload[T['type']];
    const engine = !Backend.concurrent(body.type);
    if (engine) this.engineBusy++;
    try {
      return (await this.dispatch(body, progress, signal)) as ReplyPayload[T['type']];
    } finally {
      if (engine) {
        this.engineBusy--;
        this.engineAt = this.now();
        this.prefetchDeferred();
      }
    }
  }

  /** Once, after the first engine request: the deferred half, off the thread. */
  private prefetchDeferred(): void {
    const d = this.deferred;
    if (!d || this.prefetchStarted) return;
    this.prefetchStarted = true;
    setTimeout(() => void d.prefetch(), PREPASS_IDLE_MS);
  }

  /** The open run's pre-pass, in slices while the engine is idle: the
   * final meta, or null when another trace was opened (or cancelled). */
  private async background(progress?: BackendProgress, signal?: AbortSignal): Promise<RunMeta | null> {
    const e = this.engine;
    const gen = e.generation;
    while (!(signal?.aborted ?? false) && e.generation === gen) {
      if (e.prepassDone) return e.meta;
      await nextTask();
      if (e.generation !== gen || signal?.aborted) break;
      const quiet = this.now() - this.engineAt;
      if (this.engineBusy > 0 || quiet < PREPASS_IDLE_MS) {
        await new Promise((r) => setTimeout(r, Math.max(1, PREPASS_IDLE_MS - quiet)));
        continue;
      }
      e.prepassSlice(PREPASS_SLICE_MS);
      if (e.meta) progress?.(e.meta.prepassOps, e.meta.opsTotal, 'pre-pass');
    }
    return null;
  }

  private async dispatch(req: RequestBody, progress?: BackendProgress, signal?: AbortSignal): Promise<unknown> {
    const e = this.engine;
    const p = progress ? (done: number, total: number, what: string) => progress(done, total, what) : undefined;
    switch (req.type) {
      case 'init':
        return null;
      case 'manifest':
        return manifest(this.mod);
      case 'open': {
        let text = req.trace;
        if (req.ref) {
          text = await this.textOf(req.ref);
          this.openRef = req.ref;
        } else this.openRef = null;
        this.forget();
        if (req.lanes !== undefined) e.lanesWindow = Math.max(0, Math.min(LANES_MAX, Math.floor(req.lanes)));
        e.foregroundMs = req.foregroundMs ?? Infinity;
        const imported = this.imported;
        this.imported = null;
        if (imported && req.ref === imported.ref && !req.append && !req.preset && !req.sets && !req.hand && !req.checkpointEvery)
          return e.adopt(imported.session, text, p);
        imported?.session.close();
        if (req.append) text = (text.endsWith('\n') || text === '' ? text : text + '\n') + req.append;
        return e.open(text, req.preset, req.sets, req.checkpointEvery ?? 0, p, req.hand ? parseHand(req.hand) : []);
      }
      case 'stepCpu':
        return e.stepCpu(req.cpu, p);
      case 'clearHand':
        return e.clearHand(p);
      case 'lanes':
        e.lanesWindow = Math.max(0, Math.min(LANES_MAX, Math.floor(req.window)));
        return e.frame();
      case 'stepsLine':
        return e.stepsLine();
      case 'step':
        return e.step(req.count);
      case 'stepOp':
        return e.stepOp(req.count);
      case 'seek':
        return e.seek(req.seq, p);
      case 'seekOp':
        return e.seekOp(req.op, p);
      case 'runUntil':
        return e.runUntil(req.bp, req.maxSteps, p);
      case 'text':
        return e.text(req.what, req.cache);
      case 'frame':
        return e.frame();
      case 'import':
        return this.importBlob(req.source, req.name, req.format, req.store, progress, signal);
      case 'export': {
        const text = e.exportV1();
        return { text, bytes: text.length };
      }
      case 'storedList':
        return this.storage.list();
      case 'storedOpen': {
        const meta = await this.storage.meta(req.storedId);
        if (!meta) throw new Error(`no stored trace ${req.storedId}`);
        const ref = `stored:${meta.id}`;
        await this.textOf(ref);
        return { ref, meta };
      }
      case 'storedDelete':
        await this.storage.remove(req.storedId);
        return this.storage.list();
      case 'getText': {
        const t = await this.textOf(req.ref);
        return t.length > req.maxBytes ? null : t;
      }
      case 'held':
        return this.held();
      case 'adopt':
        for (const [ref, text] of req.held.texts) this.texts.set(ref, text);
        this.openRef = req.held.openRef;
        this.pendingRef = req.held.pendingRef;
        return null;
      case 'deferredWasm':
        return this.deferred?.state ?? 'whole';
      case 'debugTrap':
        this.mod._svz_debug_trap(req.kind === 'abort' ? 1 : 0);
        return null;
    }
  }

  /** The trace texts held (JS state only: safe after a trap). */
  held(): Held {
    return { texts: [...this.texts], openRef: this.openRef, pendingRef: this.pendingRef };
  }

  /** The text of a ref: held, else loaded from the storage. */
  private async textOf(ref: string): Promise<string> {
    const held = this.texts.get(ref);
    if (held !== undefined) return held;
    const m = /^stored:(.+)$/.exec(ref);
    const t = m ? await this.storage.text(m[1]) : null;
    if (t === null) throw new Error(`trace ${ref} is gone (deleted?)`);
    this.texts.set(ref, t);
    return t;
  }

  /** Keeps only the texts of the open trace and of the last import. */
  private forget(): void {
    for (const k of [...this.texts.keys()]) if (k !== this.openRef && k !== this.pendingRef) this.texts.delete(k);
  }

  async importBlob(source: Blob, name: string, format: string, store: boolean, progress?: BackendProgress, signal?: AbortSignal): Promise<ImportResult> {
    if (this.importing) throw new Error('an import is already running');
    this.importing = true;
    const cancelled = () => signal?.aborted ?? false;
    const size = source.size;
    const t0 = this.now();
    let si: SlubvizImport | null = null;
    try {
      si = new SlubvizImport(this.mod, format);
      let last = 0;
      const CH = this.chunk;
      for (let o = 0; o < size; o += CH) {
        const bytes = new Uint8Array(await source.slice(o, Math.min(size, o + CH)).arrayBuffer());
        if (cancelled()) break;
        si.feed(bytes);
        const t = this.now();
        if (progress && (t - last > 50 || o + CH >= size)) {
          progress(Math.min(size, o + CH), size, 'import', si.lines());
          last = t;
        }
      }
      const lines = si.lines();
      if (cancelled()) {
        si.cancel();
        return { ok: false, cancelled: true, error: 'import cancelled', name, bytes: size, lines };
      }
      let session;
      try {
        session = si.end();
      } catch (err) {
        return { ok: false, cancelled: false, error: message(err) || lastError(this.mod), name, bytes: size, lines };
      }
      const tImport = this.now() - t0;
      let summary: ImportSummary;
      let summaryText: string;
      let v1: string;
      let ops: number;
      try {
        summary = JSON.parse(session.importSummaryJson()) as ImportSummary;
        summaryText = session.importSummary();
        v1 = session.exportV1();
        ops = session.opsTotal();
      } catch (err) {
        session.close();
        throw err;
      }
      const tExport = this.now() - t0 - tImport;
      const created = Date.now();
      const meta: StoredMeta = {
        id: newId(created),
        name,
        format: summary.format,
        created,
        bytes: size,
        lines,
        ops,
        v1Bytes: v1.length,
        summary,
        summaryText,
      };
      const ref = `stored:${meta.id}`;
      // kept for a replay of it (the engine's open takes it or closes it)
      this.imported?.session.close();
      this.imported = { ref, session };
      this.pendingRef = ref;
      this.texts.set(ref, v1);
      this.forget();
      let stored = false;
      let storeError = '';
      if (store) {
        progress?.(size, size, 'store', lines);
        try {
          await this.storage.put(meta, v1);
          stored = true;
        } catch (err) {
          storeError = message(err);
        }
      }
      return {
        ok: true,
        ref,
        meta,
        stored,
        storeError,
        ms: { import: tImport, export: tExport, store: this.now() - t0 - tImport - tExport },
      };
    } catch (err) {
      si?.cancel();
      return { ok: false, cancelled: false, error: message(err), name, bytes: size, lines: 0 };
    } finally {
      this.importing = false;
    }
  }
}
