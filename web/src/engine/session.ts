// Typed wrapper of the slubviz C API (core/include/slubviz/slubviz.h) over
// the Emscripten module build-wasm/slubviz_core.mjs. Mirrors
// core/wasm/slubviz-api.mjs; strings in are malloc'ed copies, strings out
// are copied at once (the C side reuses its buffers).
import type { Manifest } from './types';

export interface SlubvizModule {
  _svz_open(trace: number, preset: number, sets: number): number;
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
  _svz_events_json(h: number, from: bigint, max: number): number;
  _svz_events_text(h: number, from: bigint, max: number): number;
  _svz_slabinfo(h: number): number;
  _svz_sysfs(h: number, cache: number): number;
  _svz_stats_text(h: number): number;
  _svz_validate(h: number): number;
  _svz_open_any(text: number, preset: number, sets: number): number;
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
  _malloc(n: number): number;
  _free(p: number): void;
  UTF8ToString(p: number): string;
  stringToUTF8(s: string, p: number, n: number): void;
  lengthBytesUTF8(s: string): number;
}

export class SlubvizError extends Error {}

function withCString<T>(mod: SlubvizModule, str: string | null, fn: (p: number) => T): T {
  if (str === null) return fn(0);
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

export class Session {
  constructor(
    readonly mod: SlubvizModule,
    public h: number,
  ) {}

  static open(mod: SlubvizModule, trace: string, preset = '', sets: string | null = null): Session {
    const h = withCString(mod, trace, (t) =>
      withCString(mod, preset, (p) => withCString(mod, sets, (s) => mod._svz_open(t, p, s))),
    );
    if (h < 0) throw new SlubvizError(mod.UTF8ToString(mod._svz_last_error()));
    return new Session(mod, h);
  }

  /** svz_open_any: any supported format (imported first unless v1). */
  static openAny(mod: SlubvizModule, text: string, preset = '', sets: string | null = null): Session {
    const h = withCString(mod, text, (t) =>
      withCString(mod, preset, (p) => withCString(mod, sets, (s) => mod._svz_open_any(t, p, s))),
    );
    if (h < 0) throw new SlubvizError(mod.UTF8ToString(mod._svz_last_error()));
    return new Session(mod, h);
  }

  private str(p: number): string {
    return this.mod.UTF8ToString(p);
  }

  close(): void {
    if (this.h > 0) this.mod._svz_close(this.h);
    this.h = -1;
  }
  setEvents(on: boolean): void {
    this.mod._svz_set_events(this.h, on ? 1 : 0);
  }
  step(): number {
    return this.mod._svz_step(this.h);
  }
  runAll(): number {
    return this.mod._svz_run_all(this.h);
  }
  runToOp(op: number): number {
    return this.mod._svz_run_to_op(this.h, op);
  }
  opsTotal(): number {
    return this.mod._svz_ops_total(this.h);
  }
  opsDone(): number {
    return this.mod._svz_ops_done(this.h);
  }
  seq(): number {
    return Number(this.mod._svz_seq(this.h));
  }
  runError(): string {
    return this.str(this.mod._svz_run_error(this.h));
  }
  reports(): string {
    return this.str(this.mod._svz_reports(this.h));
  }
  checkpoint(): number {
    return this.mod._svz_checkpoint(this.h);
  }
  restore(id: number): number {
    return this.mod._svz_restore(this.h, id);
  }
  checkpointDrop(id: number): void {
    this.mod._svz_checkpoint_drop(this.h, id);
  }
  snapshotJson(): string {
    return this.str(this.mod._svz_snapshot_json(this.h));
  }
  eventsJson(from: number, max: number): string {
    return this.str(this.mod._svz_events_json(this.h, BigInt(from), max));
  }
  slabinfo(): string {
    return this.str(this.mod._svz_slabinfo(this.h));
  }
  sysfs(cache: string): string {
    return withCString(this.mod, cache, (c) => this.str(this.mod._svz_sysfs(this.h, c)));
  }
  statsText(): string {
    return this.str(this.mod._svz_stats_text(this.h));
  }
  validate(): string {
    return this.str(this.mod._svz_validate(this.h));
  }
  importSummary(): string {
    return this.str(this.mod._svz_import_summary(this.h));
  }
  importSummaryJson(): string {
    return this.str(this.mod._svz_import_summary_json(this.h));
  }
  exportV1(): string {
    return this.str(this.mod._svz_export_v1(this.h));
  }
}

/** svz_manifest_json, parsed (built once by the core; no session needed). */
export function readManifest(mod: SlubvizModule): Manifest {
  return JSON.parse(mod.UTF8ToString(mod._svz_manifest_json())) as Manifest;
}

export function lastError(mod: SlubvizModule): string {
  return mod.UTF8ToString(mod._svz_last_error());
}

/** A streaming import (svz_import_begin/feed/lines/end/cancel): chunks of
 * bytes of any size go in (a line may straddle two chunks); end() opens the
 * session. The input is never held whole. */
export class StreamImport {
  private imp: number;
  private buf = 0;
  private cap = 0;

  constructor(
    readonly mod: SlubvizModule,
    format = '',
  ) {
    this.imp = withCString(mod, format, (f) => mod._svz_import_begin(f));
    if (this.imp <= 0) throw new SlubvizError(`svz_import_begin(${format || 'detect'}) failed: ${lastError(mod)}`);
  }

  get active(): boolean {
    return this.imp > 0;
  }

  feed(bytes: Uint8Array): void {
    if (this.imp <= 0) throw new SlubvizError('import already ended');
    if (bytes.length === 0) return;
    if (bytes.length > this.cap) {
      if (this.buf) this.mod._free(this.buf);
      this.cap = Math.max(bytes.length, 64 << 10);
      this.buf = this.mod._malloc(this.cap);
      if (!this.buf) throw new SlubvizError(`malloc(${this.cap}) failed`);
    }
    // HEAPU8 is replaced when the memory grows: read it after the malloc
    this.mod.HEAPU8.set(bytes, this.buf);
    if (this.mod._svz_import_feed(this.imp, this.buf, bytes.length) !== 0)
      throw new SlubvizError(`svz_import_feed failed: ${lastError(this.mod)}`);
  }

  lines(): number {
    return this.imp > 0 ? this.mod._svz_import_lines(this.imp) : 0;
  }

  private release(): void {
    if (this.buf) this.mod._free(this.buf);
    this.buf = 0;
    this.cap = 0;
    this.imp = -1;
  }

  /** Opens the session; throws SlubvizError(svz_last_error) when nothing could be imported. */
  end(preset = '', sets: string | null = null): Session {
    const imp = this.imp;
    this.release();
    const h = withCString(this.mod, preset, (p) => withCString(this.mod, sets, (s) => this.mod._svz_import_end(imp, p, s)));
    if (h < 0) throw new SlubvizError(lastError(this.mod));
    return new Session(this.mod, h);
  }

  cancel(): void {
    if (this.imp > 0) this.mod._svz_import_cancel(this.imp);
    this.release();
  }
}
