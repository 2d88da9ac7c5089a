// JS side of the slubviz C API (core/include/slubviz/slubviz.h) over the
// browser module build-wasm/slubviz_core.mjs: the one binding, used by the
// tests under Node and by the web app's workers (web/src/engine,
// web/src/lessons). Types: slubviz-api.d.ts. No DOM, no Node APIs.
//
//   import createSlubvizModule from './slubviz_core.mjs';
//   import { SlubvizSession } from './slubviz-api.mjs';
//   const mod = await createSlubvizModule();            // browser
//   const mod = await createSlubvizModule({ wasmBinary }); // Node: pass the bytes
//   const s = SlubvizSession.open(mod, traceText, { preset, sets });
//   s.runAll(); s.statsText(); s.close();
//
// Real traces (docs/import.md): SlubvizSession.openAny(mod, text) takes any
// supported format; SlubvizImport streams a large one in chunks:
//   const imp = new SlubvizImport(mod);          // format detected
//   imp.feed(bytes); ... imp.lines();            // Uint8Array chunks
//   const s = imp.end({ preset, sets });         // the session
//   s.importSummaryJson(); s.exportV1();
//
// Strings going in are copied with malloc (traces can be larger than the
// wasm stack that ccall's 'string' type uses). Strings coming out are copied
// into JS at once: the C side reuses its buffers on the next call.
// int64_t values cross as BigInt (-sWASM_BIGINT); this wrapper takes and
// returns plain numbers.

export class SlubvizError extends Error {}

function withCString(mod, str, fn) {
  if (str === null || str === undefined) return fn(0);
  const n = mod.lengthBytesUTF8(str) + 1;
  const p = mod._malloc(n);
  if (!p) throw new SlubvizError(`malloc(${n}) failed`);
  try {
    mod.stringToUTF8(str, p, n);
    return fn(p);
  } finally {
    mod._free(p);
  }
}

/** `sets` may be a "key=value\n..." string, an array of "key=value", or an object. */
function setsText(sets) {
  if (sets === null || sets === undefined) return null;
  if (typeof sets === 'string') return sets;
  if (Array.isArray(sets)) return sets.join('\n');
  return Object.entries(sets).map(([k, v]) => `${k}=${v}`).join('\n');
}

const utf8 = new TextDecoder();

/** A string the core returned (NUL-terminated UTF-8 in the wasm memory),
 * copied into JS. Its end found by the typed array's own search, not by
 * Emscripten's UTF8ToString, which walks it a byte at a time in JS: a
 * snapshot of ublk-bio256 (176 KB) took 6.6 ms at its first read and 0.77
 * ms warm against 0.56 and 0.44, one of live-30k (1.3 MB) 5.6 against 2.8
 * ms warm (Node 20). */
function cString(mod, ptr) {
  if (!ptr) return '';
  const heap = mod.HEAPU8;
  const end = heap.indexOf(0, ptr);
  return utf8.decode(heap.subarray(ptr, end < 0 ? heap.length : end));
}

/** svz_last_error(): why the last open or import failed. */
export function lastError(mod) {
  return cString(mod, mod._svz_last_error());
}

/** svz_manifest_json, parsed: the core's vocabulary (presets, switches,
 * stats, ops, import formats, limits); no session needed. */
export function manifest(mod) {
  return JSON.parse(cString(mod, mod._svz_manifest_json()));
}

export class SlubvizSession {
  /** Opens a session on a trace; throws SlubvizError(svz_last_error()) on a parse error. */
  static open(mod, traceText, { preset = '', sets = null } = {}) {
    const h = withCString(mod, traceText, (t) =>
      withCString(mod, preset ?? '', (p) =>
        withCString(mod, setsText(sets), (s) => mod._svz_open(t, p, s))));
    if (h < 0) throw new SlubvizError(lastError(mod));
    return new SlubvizSession(mod, h);
  }

  /** svz_open_any: any supported format; throws SlubvizError(svz_last_error()) when nothing could be imported. */
  static openAny(mod, text, { preset = '', sets = null } = {}) {
    const h = withCString(mod, text, (t) =>
      withCString(mod, preset ?? '', (p) =>
        withCString(mod, setsText(sets), (s) => mod._svz_open_any(t, p, s))));
    if (h < 0) throw new SlubvizError(lastError(mod));
    return new SlubvizSession(mod, h);
  }

  /** svz_reopen: another session on this one's parsed trace (not parsed
   * again) under `preset` and `sets`, the run SlubvizSession.open() of the
   * same text would give; throws SlubvizError(svz_last_error()). */
  reopen({ preset = '', sets = null } = {}) {
    const mod = this.mod;
    const h = withCString(mod, preset ?? '', (p) => withCString(mod, setsText(sets), (s) => mod._svz_reopen(this.h, p, s)));
    if (h < 0) throw new SlubvizError(lastError(mod));
    return new SlubvizSession(mod, h);
  }

  constructor(mod, handle) {
    this.mod = mod;
    this.h = handle;
  }

  #str(ptr) { return cString(this.mod, ptr); }

  close() { if (this.h > 0) this.mod._svz_close(this.h); this.h = -1; }
  setEvents(on) { this.mod._svz_set_events(this.h, on ? 1 : 0); }

  step() { return this.mod._svz_step(this.h); }
  stepCpu(cpu) { return this.mod._svz_step_cpu(this.h, cpu); }
  runToOp(op) { return this.mod._svz_run_to_op(this.h, op); }
  runAll() { return this.mod._svz_run_all(this.h); }

  opsTotal() { return this.mod._svz_ops_total(this.h); }
  opsDone() { return this.mod._svz_ops_done(this.h); }
  seq() { return Number(this.mod._svz_seq(this.h)); }
  runError() { return this.#str(this.mod._svz_run_error(this.h)); }
  reports() { return this.#str(this.mod._svz_reports(this.h)); }

  checkpoint() { return this.mod._svz_checkpoint(this.h); }
  restore(id) { return this.mod._svz_restore(this.h, id); }
  checkpointDrop(id) { this.mod._svz_checkpoint_drop(this.h, id); }

  snapshotJson() { return this.#str(this.mod._svz_snapshot_json(this.h)); }
  snapshot() { return JSON.parse(this.snapshotJson()); }

  /** slab id -> { v, owners }: the owners svz_snapshot_lean_json sent */
  #owners = new Map();

  /** The same as snapshot(), for a fraction of the cost when few slabs
   * changed: svz_snapshot_lean_json sends a slab's owners only when they
   * differ from the ones it last sent for that slab id, with their version
   * (owners_v); the others come from what this session kept (the same
   * arrays: never change them). */
  snapshotShared() {
    const snap = JSON.parse(this.#str(this.mod._svz_snapshot_lean_json(this.h)) || 'null');
    if (!snap) return this.snapshot(); // out of memory in the exporter
    const kept = new Map();
    let full = null;
    for (const slab of snap.slabs) {
      const v = slab.owners_v;
      delete slab.owners_v;
      let owners = slab.owners;
      if (!owners) {
        // unchanged since version v (not kept only if an earlier reply was lost)
        const k = this.#owners.get(slab.id);
        if (k?.v === v) owners = k.owners;
        else {
          full ??= this.snapshot();
          owners = full.slabs.find((s) => s.id === slab.id).owners;
        }
        slab.owners = owners; // last, where the full snapshot has it
      }
      kept.set(slab.id, { v, owners });
    }
    this.#owners = kept;
    return snap;
  }
  eventsJson(fromSeq, max) {
    return this.#str(this.mod._svz_events_json(this.h, BigInt(fromSeq), max));
  }
  eventsText(fromSeq, max) {
    return this.#str(this.mod._svz_events_text(this.h, BigInt(fromSeq), max));
  }
  slabinfo() { return this.#str(this.mod._svz_slabinfo(this.h)); }
  sysfs(cache) {
    return withCString(this.mod, cache, (c) => this.#str(this.mod._svz_sysfs(this.h, c)));
  }
  statsText() { return this.#str(this.mod._svz_stats_text(this.h)); }
  statTotals() { return JSON.parse(this.#str(this.mod._svz_stat_totals_json(this.h)) || '{}'); }
  validate() { return this.#str(this.mod._svz_validate(this.h)); }
  profileText() { return this.#str(this.mod._svz_profile_text(this.h)); }
  profileJson() { return this.#str(this.mod._svz_profile_json(this.h)); }
  profile() { return JSON.parse(this.profileJson() || '{"schema":1,"timed":false}'); }
  importSummary() { return this.#str(this.mod._svz_import_summary(this.h)); }
  importSummaryJson() { return this.#str(this.mod._svz_import_summary_json(this.h)); }
  importSummaryObject() { return JSON.parse(this.importSummaryJson() || 'null'); }
  exportV1() { return this.#str(this.mod._svz_export_v1(this.h)); }
}

/** A streaming import (svz_import_begin/feed/lines/end/cancel): feed chunks
 * of bytes of any size (a line may straddle two chunks); end() opens the
 * session. The input is never held whole. */
export class SlubvizImport {
  #buf = 0;
  #cap = 0;

  constructor(mod, format = '') {
    this.mod = mod;
    this.id = withCString(mod, format ?? '', (f) => mod._svz_import_begin(f));
    if (this.id <= 0) throw new SlubvizError(`svz_import_begin(${format || 'detect'}) failed: ${lastError(mod)}`);
  }

  /** begun, not yet ended or cancelled */
  get active() { return this.id > 0; }

  /** `bytes`: a Uint8Array (or a string, UTF-8 encoded). */
  feed(bytes) {
    if (this.id <= 0) throw new SlubvizError('import already ended');
    if (typeof bytes === 'string') bytes = new TextEncoder().encode(bytes);
    if (bytes.length === 0) return;
    if (bytes.length > this.#cap) {
      if (this.#buf) this.mod._free(this.#buf);
      this.#cap = Math.max(bytes.length, 1 << 16);
      this.#buf = this.mod._malloc(this.#cap);
      if (!this.#buf) throw new SlubvizError(`malloc(${this.#cap}) failed`);
    }
    this.mod.HEAPU8.set(bytes, this.#buf); // after malloc: memory growth replaces HEAPU8
    if (this.mod._svz_import_feed(this.id, this.#buf, bytes.length) !== 0) throw new SlubvizError(`svz_import_feed failed: ${lastError(this.mod)}`);
  }

  lines() { return this.id > 0 ? this.mod._svz_import_lines(this.id) : 0; }

  #release() {
    if (this.#buf) this.mod._free(this.#buf);
    this.#buf = 0;
    this.#cap = 0;
    this.id = -1;
  }

  end({ preset = '', sets = null } = {}) {
    const id = this.id;
    if (id <= 0) throw new SlubvizError('import already ended');
    this.#release();
    const h = withCString(this.mod, preset ?? '', (p) =>
      withCString(this.mod, setsText(sets), (s) => this.mod._svz_import_end(id, p, s)));
    if (h < 0) throw new SlubvizError(lastError(this.mod));
    return new SlubvizSession(this.mod, h);
  }

  cancel() {
    if (this.id > 0) this.mod._svz_import_cancel(this.id);
    this.#release();
  }
}

/** The browser module's deferred half, slubviz_core.deferred.wasm: a
 * Release build splits the module in two (core/wasm/split.mjs), and
 * slubviz_core.wasm holds only what the page's first screen runs. Give the
 * factory `factoryOptions()`, then `attach()` the module it made. The first
 * call into the other half loads it on the spot with `read()` ('on-demand');
 * `prefetch()` compiles it off the thread with `fetch()` and instantiates it
 * before that ('prefetched'). A module built whole ('whole': Debug and
 * sanitizer builds) needs neither. Instantiating the half writes its
 * functions into the primary's table: no call ever waits for it again. */
export class DeferredHalf {
  /** 'pending' | 'prefetched' | 'on-demand' | 'whole' */
  state = 'pending';
  #mod = null;
  #read;
  #fetch;
  #prefetching = null;

  /** `read()` returns the half's bytes at once (a worker: synchronous XHR;
   * Node: readFileSync), `fetch()` a promise of them (default: read()). */
  constructor(read, fetch = async () => read()) {
    this.#read = read;
    this.#fetch = fetch;
  }

  factoryOptions() {
    // Emscripten's glue (-sSPLIT_MODULE) calls this from the first
    // placeholder hit, then retries the call through the table. It runs in
    // the middle of a C call: if the half cannot be had, that call cannot
    // finish, so the failure is a trap (the caller drops the instance).
    // (a half of another build than the first, from a stale cache, fails
    // to link: a trap too)
    const load = (_file, imports) => {
      try {
        this.#instantiate(new WebAssembly.Module(this.#read()), imports, 'on-demand');
      } catch (e) {
        throw new WebAssembly.RuntimeError(`slubviz_core.deferred.wasm could not be loaded: ${e instanceof Error ? e.message : e}`);
      }
    };
    return { loadSplitModule: load };
  }

  attach(mod) {
    this.#mod = mod;
    // wasm-split's exports for the other half are named '%...'
    if (!Object.keys(mod.asm).some((name) => name.startsWith('%'))) this.state = 'whole';
    return mod;
  }

  /** Never rejects: a half that cannot be had stays 'pending' (a warning
   * says why), and the first call into it tries again, as a trap if in vain. */
  prefetch() {
    this.#prefetching ??= (async () => {
      if (this.state !== 'pending') return;
      const compiled = await WebAssembly.compile(await this.#fetch());
      if (this.state === 'pending') this.#instantiate(compiled, { primary: this.#mod.asm }, 'prefetched');
    })().catch((e) => console.warn(`slubviz_core.deferred.wasm could not be prefetched: ${e instanceof Error ? e.message : e}`));
    return this.#prefetching;
  }

  #instantiate(compiled, imports, how) {
    new WebAssembly.Instance(compiled, imports);
    this.state = how;
  }

  /** The two lines Emscripten's glue prints (printErr) around an on-demand
   * load ("placeholder function called: N", "instantiated deferred module,
   * continuing"): progress, not errors; `state` says the same. */
  static isNotice(line) {
    return line.startsWith('placeholder function called: ') || line === 'instantiated deferred module, continuing';
  }
}
