// Typed wrapper of the slubviz C API (core/include/slubviz/slubviz.h) over
// the Emscripten module build-wasm/slubviz_core.mjs. Mirrors
// core/wasm/slubviz-api.mjs; strings in are malloc'ed copies, strings out
// are copied at once (the C side reuses its buffers).

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
  private constructor(
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
}
