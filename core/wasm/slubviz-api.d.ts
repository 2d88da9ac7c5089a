// Types of slubviz-api.mjs (the one JS binding of the C API, used by the
// Node tests and the web app's workers) and of the Emscripten module it
// drives (build-wasm/slubviz_core.mjs, exports: exported_functions.json).

/** The exports of the module (-sEXPORTED_FUNCTIONS) and the runtime helpers
 * the binding uses. Strings are char pointers; int64_t crosses as BigInt. */
export interface SlubvizModule {
  _svz_open(trace: number, preset: number, sets: number): number;
  _svz_open_any(text: number, preset: number, sets: number): number;
  _svz_reopen(h: number, preset: number, sets: number): number;
  _svz_last_error(): number;
  _svz_close(h: number): void;
  _svz_set_events(h: number, on: number): void;
  _svz_step(h: number): number;
  _svz_step_cpu(h: number, cpu: number): number;
  _svz_run_to_op(h: number, op: number): number;
  _svz_run_all(h: number): number;
  _svz_ops_total(h: number): number;
  _svz_ops_done(h: number): number;
  _svz_seq(h: number): bigint;
  _svz_run_error(h: number): number;
  _svz_reports(h: number): number;
  _svz_checkpoint(h: number): number;
  _svz_restore(h: number, id: number): number;
  _svz_checkpoint_drop(h: number, id: number): void;
  _svz_snapshot_json(h: number): number;
  _svz_snapshot_lean_json(h: number): number;
  _svz_events_json(h: number, from: bigint, max: number): number;
  _svz_events_text(h: number, from: bigint, max: number): number;
  _svz_slabinfo(h: number): number;
  _svz_sysfs(h: number, cache: number): number;
  _svz_stats_text(h: number): number;
  _svz_stat_totals_json(h: number): number;
  _svz_validate(h: number): number;
  _svz_profile_text(h: number): number;
  _svz_profile_json(h: number): number;
  _svz_import_begin(format: number): number;
  _svz_import_feed(imp: number, data: number, len: number): number;
  _svz_import_lines(imp: number): number;
  _svz_import_end(imp: number, preset: number, sets: number): number;
  _svz_import_cancel(imp: number): void;
  _svz_import_summary(h: number): number;
  _svz_import_summary_json(h: number): number;
  _svz_export_v1(h: number): number;
  /** the core's vocabulary as JSON (core/src/api/manifest.c) */
  _svz_manifest_json(): number;
  /** bytes allocated on the wasm heap (core/wasm/module.c) */
  _svz_heap_used(): number;
  /** test only: traps the instance (1: abort(), else unreachable) */
  _svz_debug_trap(kind: number): void;
  HEAPU8: Uint8Array;
  /** the instance's exports */
  asm: Record<string, unknown>;
  _malloc(n: number): number;
  _free(p: number): void;
  UTF8ToString(p: number): string;
  stringToUTF8(s: string, p: number, n: number): void;
  lengthBytesUTF8(s: string): number;
}

/** The factory build-wasm/slubviz_core.mjs exports by default. */
export type SlubvizModuleFactory = (opts: {
  wasmBinary?: Uint8Array;
  locateFile?: (path: string) => string;
  print?: (s: string) => void;
  printErr?: (s: string) => void;
  /** instantiates the module itself (Emscripten's hook): `done(instance, module)`, returns its exports */
  instantiateWasm?: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => WebAssembly.Exports;
  /** Emscripten's hook for the deferred half: DeferredHalf.factoryOptions() */
  loadSplitModule?: (file: string, imports: WebAssembly.Imports) => void;
}) => Promise<SlubvizModule>;

export type DeferredState = 'pending' | 'prefetched' | 'on-demand' | 'whole';

/** The browser module's deferred half (slubviz_core.deferred.wasm), loaded
 * on the first call into it or prefetched before that. */
export class DeferredHalf {
  state: DeferredState;
  constructor(read: () => BufferSource, fetch?: () => Promise<BufferSource>);
  factoryOptions(): { loadSplitModule: (file: string, imports: WebAssembly.Imports) => void };
  attach(mod: SlubvizModule): SlubvizModule;
  /** never rejects: a failure leaves 'pending' and warns */
  prefetch(): Promise<void>;
  /** a line the glue prints around an on-demand load (not an error) */
  static isNotice(line: string): boolean;
}

export interface ManifestPreset {
  name: string;
  description: string;
  /** "key=value ..." as svz_config_set takes them */
  settings: string;
}

export interface ManifestSwitch {
  name: string;
  aliases: string[];
  kind: 'bool' | 'value';
  /** the words a value switch takes (enum order); [] for numbers and names */
  choices: string[];
  what: string;
}

/** svz_manifest_json (schema 1): every list of names the core publishes. */
export interface Manifest {
  schema: number;
  presets: ManifestPreset[];
  default_preset: string;
  switches: ManifestSwitch[];
  /** SLUB_STATS items: enum name, sysfs name, the eras that count it */
  stats: { item: string; sysfs: string; eras: string[] }[];
  node_counters: string[];
  event_kinds: string[];
  /** engine.h CHECKS: the decisions of `check` events */
  checks: string[];
  /** lock names of events (`list_lock`, `barn_lock`, `cpu_sheaves_lock`, `cpu_slab_lock`) */
  locks: string[];
  /** where objects, slabs and sheaves sit (events' from/to) */
  locations: string[];
  kernel_functions: string[];
  ops: string[];
  directives: string[];
  import_formats: { name: string; aliases: string[]; label: string }[];
  /** why an imported event was not kept: the summary's key and text */
  import_skip_reasons: { name: string; text: string }[];
  limits: Record<string, number>;
}

/** A settings list for svz_open: "key=value\n..." text, an array of
 * "key=value", or an object. */
export type Sets = string | string[] | Record<string, string | number | boolean> | null | undefined;

export interface OpenOptions {
  preset?: string;
  sets?: Sets;
}

export class SlubvizError extends Error {}

export function lastError(mod: SlubvizModule): string;
export function manifest(mod: SlubvizModule): Manifest;

export class SlubvizSession {
  /** throws SlubvizError(svz_last_error()) on a parse error */
  static open(mod: SlubvizModule, traceText: string, opts?: OpenOptions): SlubvizSession;
  /** any supported format; throws SlubvizError when nothing could be imported */
  static openAny(mod: SlubvizModule, text: string, opts?: OpenOptions): SlubvizSession;
  /** svz_reopen: another session on this one's parsed trace under other options (the run open() of the same text gives). */
  reopen(opts?: OpenOptions): SlubvizSession;
  constructor(mod: SlubvizModule, handle: number);
  readonly mod: SlubvizModule;
  /** the session handle; -1 once closed */
  h: number;
  close(): void;
  setEvents(on: boolean): void;
  step(): number;
  stepCpu(cpu: number): number;
  runToOp(op: number): number;
  runAll(): number;
  opsTotal(): number;
  opsDone(): number;
  seq(): number;
  runError(): string;
  reports(): string;
  checkpoint(): number;
  restore(id: number): number;
  checkpointDrop(id: number): void;
  snapshotJson(): string;
  snapshot(): unknown;
  /** snapshot() again, with the owners arrays of slabs whose owners did not
   * change since the last call shared with the earlier snapshots (never
   * change them) */
  snapshotShared(): unknown;
  eventsJson(fromSeq: number, max: number): string;
  eventsText(fromSeq: number, max: number): string;
  slabinfo(): string;
  sysfs(cache: string): string;
  statsText(): string;
  /** svz_stat_totals_json: SLUB_STATS and slab counts summed over caches and CPUs */
  statTotals(): Record<string, number>;
  validate(): string;
  /** svz_profile_text: the timed schedule's profile, as `slubviz run --profile` prints it */
  profileText(): string;
  /** svz_profile_json: the same figures, JSON schema 1 (slubviz.h) */
  profileJson(): string;
  profile(): SlubvizProfile;
  importSummary(): string;
  importSummaryJson(): string;
  importSummaryObject(): unknown;
  exportV1(): string;
}

/** A streaming import (svz_import_begin/feed/lines/end/cancel). */
export class SlubvizImport {
  /** `format`: a name or alias of the manifest's import_formats; '' detects */
  constructor(mod: SlubvizModule, format?: string);
  readonly mod: SlubvizModule;
  id: number;
  /** begun, not yet ended or cancelled */
  readonly active: boolean;
  /** a chunk of bytes (a string is UTF-8 encoded) */
  feed(bytes: Uint8Array | string): void;
  lines(): number;
  /** opens the session; throws SlubvizError when nothing could be imported */
  end(opts?: OpenOptions): SlubvizSession;
  cancel(): void;
}

/** svz_profile_json() schema 1 (core/include/slubviz/slubviz.h). */
export type SlubvizProfile =
  | { schema: 1; timed: false }
  | {
      schema: 1; timed: true;
      throughput_mops: number; spin_share: number;
      cycles_total: number; makespan: number; work_cycles: number; work_share: number;
      functions: { fn: string; spin_on?: string; cycles: number; share: number }[];
      locks: { lock: string; node: number; acquisitions: number; contended: number; wait_total: number; wait_max: number }[];
      cpus: { cpu: number; busy: number; spin: number; idle: number }[];
    };
