// The engine: one slubviz session, its checkpoints and the seeks over them.
// Pure TypeScript over the wasm module (no worker or DOM globals), so the
// worker (worker.ts) and Node tests can both drive it.
//
// Time travel: opening a trace runs it once to the end (the "pre-pass"),
// taking a checkpoint (svz_checkpoint) every `checkpointEvery` ops and
// sampling the summed SLUB_STATS for the timeline and sparklines.
// Checkpoints are copies of the model's arena and a big trace has a big
// arena (a 600k-op import: ~7 MB each), so they live within a memory
// budget (CHECKPOINT_BUDGET, measured on the wasm heap): when the next one
// would go over it, or svz_checkpoint fails (wasm malloc), every other
// checkpoint is dropped and the interval doubles. Seeks still work, they
// just replay more.
// A seek restores the nearest checkpoint strictly before the target and
// steps forward (svz_step); it never replays from op 0 unless the target
// is within the first checkpoint interval. Stepping forward from the
// current position needs no restore.
import type { Breakpoint, EndHandle, Frame, OpenResult, RunMeta } from './protocol';
import { SlubvizSession, type SlubvizModule } from '../../../core/wasm/slubviz-api';
import type { Snapshot, SvzEvent } from './types';

interface Checkpoint {
  id: number;
  seq: number;
  op: number;
  /** wasm heap bytes it takes */
  bytes: number;
}

export type Progress = (done: number, total: number, what: string) => void;

const MAX_CHECKPOINTS = 256;
/** Wasm heap bytes the checkpoints of one run may take (the module can
 * grow to 2 GiB; the trace, the model and the views need the rest). */
export const CHECKPOINT_BUDGET = 256 << 20;
const MAX_BUCKETS = 400;
const RECENT = 12;
export const END_HANDLES_MAX = 5000;

/** Live handles of a snapshot (its slabs' owners), with their cache. */
export function liveOwners(snap: Snapshot, max = END_HANDLES_MAX): { handles: EndHandle[]; more: number } {
  const caches = new Map(snap.caches.map((c) => [c.id, c]));
  const handles: EndHandle[] = [];
  let more = 0;
  for (const sl of snap.slabs) {
    const c = caches.get(sl.cache);
    for (const o of sl.owners ?? []) {
      if (handles.length >= max) {
        more++;
        continue;
      }
      handles.push({ handle: o.handle, cache: c?.name ?? '?', kmalloc: !!c?.kmalloc, site: o.site });
    }
  }
  return { handles, more };
}

export function describeTrace(text: string): string {
  const out: string[] = [];
  for (const l of text.split('\n')) {
    if (!l.startsWith('#')) break;
    out.push(l.replace(/^# ?/, ''));
  }
  return out.join('\n');
}

export function matchEvent(bp: Breakpoint, e: SvzEvent, objSlab: number | null): boolean {
  switch (bp.kind) {
    case 'alloc_slowpath':
      return e.kind === 'stat' && e.stat === 'alloc_slowpath';
    case 'new_slab':
      return e.kind === 'new_slab';
    case 'discard':
      return e.kind === 'discard_slab';
    case 'barn_get_fail':
    case 'sheaf_refill':
      return e.kind === 'stat' && e.stat === bp.kind;
    case 'no_barn':
      return e.kind === 'check' && e.check === 'NO_BARN';
    case 'list_lock_contended':
      return (e.kind === 'spin' || e.kind === 'trylock_fail') && e.lock === 'list_lock';
    case 'object_freed':
      // the engine follows the object's place instead (runUntilObject): a
      // bulk free moves many objects in one event that names at most one
      return bp.obj !== undefined && e.obj === bp.obj && (e.from === 'user' || e.from === 'bulk');
    case 'object':
      if (bp.obj === undefined) return false;
      if (e.obj === bp.obj) return true;
      // Moves of several objects name only the last one: count a move of
      // many objects of the object's slab as a change too.
      return (
        objSlab !== null &&
        e.slab === objSlab &&
        (e.kind === 'new_slab' || e.kind === 'discard_slab' ||
          ((e.kind === 'take_object' || e.kind === 'put_object' || e.kind === 'cmpxchg') && Math.abs(e.count) > 1))
      );
  }
  return false;
}

/** A caller holds the object (objectWhere): allocated ('u'), or in flight
 * in a caller's or a CPU's bulk array ('b': an op in progress holds it). */
export function callerHolds(where: string): boolean {
  const [, st, , cpu] = where.split(':');
  return st === 'u' || st === 'b' || (cpu !== undefined && cpu !== '-');
}

/** Where object `obj` is and in what state: its slab's state char, the
 * sheaf or CPU bulk array holding it. Changes when the object changes. */
export function objectWhere(snap: Snapshot, obj: number): string {
  const slab = snap.slabs.find((x) => obj >= x.obj0 && obj < x.obj0 + x.objects);
  if (!slab) return 'none';
  const st = slab.state[obj - slab.obj0] ?? '?';
  const sheaf = snap.sheaves.find((sh) => sh.objects.includes(obj));
  const cpu = snap.cpus.find((c) => c.bulk.includes(obj));
  return `${slab.id}:${st}:${sheaf ? sheaf.id : '-'}:${cpu ? cpu.cpu : '-'}`;
}

export class Engine {
  private s: SlubvizSession | null = null;
  private ckpts: Checkpoint[] = [];
  /** bytes of the checkpoints kept */
  private ckptBytes = 0;
  /** svz_checkpoint calls that failed (out of wasm memory) */
  private ckptFailed = 0;
  /** ops between two checkpoints (doubles when they are thinned) */
  private every = 1;
  private lastSnap: Snapshot | null = null;
  meta: RunMeta | null = null;
  /** micro-steps run by seeks since open (a measure of replay work) */
  replayed = 0;
  /** checkpoint memory budget in bytes (CHECKPOINT_BUDGET) */
  readonly budget: number;

  constructor(
    readonly mod: SlubvizModule,
    opts: { budget?: number } = {},
  ) {
    this.budget = opts.budget ?? CHECKPOINT_BUDGET;
  }

  get session(): SlubvizSession {
    if (!this.s) throw new Error('no trace is open');
    return this.s;
  }

  close(): void {
    if (this.s) {
      for (const c of this.ckpts) this.s.checkpointDrop(c.id);
      this.s.close();
    }
    this.s = null;
    this.ckpts = [];
    this.ckptBytes = 0;
    this.ckptFailed = 0;
    this.meta = null;
  }

  open(trace: string, preset: string, sets: string, checkpointEvery = 0, progress?: Progress): OpenResult {
    this.close();
    const s = SlubvizSession.open(this.mod, trace, { preset, sets: sets || null });
    return this.prepass(s, trace, checkpointEvery, progress);
  }

  /** svz_export_v1 of the open session. */
  exportV1(): string {
    return this.session.exportV1();
  }

  private prepass(s: SlubvizSession, trace: string, checkpointEvery: number, progress?: Progress): OpenResult {
    this.s = s;
    const total = s.opsTotal();
    this.every = Math.max(
      1,
      checkpointEvery > 0 ? checkpointEvery : Math.min(1000, Math.ceil(total / 200)),
      Math.ceil(total / MAX_CHECKPOINTS),
    );
    const buckets = Math.max(1, Math.min(total, MAX_BUCKETS));
    // bucket ends sample the stats (timeline, sparklines); checkpoint-only
    // bounds do not
    const bucketEnds = new Set<number>();
    for (let b = 1; b <= buckets; b++) bucketEnds.add(Math.round((total * b) / buckets));
    const bounds = new Set<number>(bucketEnds);
    for (let op = this.every; op < total; op += this.every) bounds.add(op);
    const targets = [...bounds].filter((x) => x > 0).sort((a, b) => a - b);

    // a session builds its model on first use: build it here, so that the
    // first checkpoint's measured bytes are the checkpoint's alone
    s.seq();
    if (!this.checkpointHere(0)) throw new Error('out of memory: no room for the first checkpoint of this trace');
    const sampleOps: number[] = [0];
    // the stat totals alone (svz_stat_totals_json), not a snapshot: a
    // snapshot of a big state costs more than the ops between two buckets
    let prev = s.statTotals();
    const samples: Record<string, number[]> = {};
    for (const k of Object.keys(prev)) samples[k] = [prev[k]];
    let lastOp = 0;
    let t0 = Date.now();
    for (const target of targets) {
      const r = s.runToOp(target);
      const done = s.opsDone();
      if (done % this.every === 0 && done > this.ckpts[this.ckpts.length - 1].op && s.seq() > 0) this.checkpointHere(done);
      if ((done > lastOp && (bucketEnds.has(target) || done >= total)) || r < 0) {
        const now = s.statTotals();
        sampleOps.push(done);
        for (const k of Object.keys(now)) {
          if (!samples[k]) samples[k] = new Array(sampleOps.length - 1).fill(0);
          samples[k].push(now[k]);
        }
        prev = now;
        lastOp = done;
      }
      if (r < 0) break;
      if (progress && Date.now() - t0 > 100) {
        progress(done, total, 'pre-pass');
        t0 = Date.now();
      }
    }
    const seqTotal = s.seq();
    const live = liveOwners(this.snapshot());
    this.meta = {
      opsTotal: total,
      seqTotal,
      description: describeTrace(trace),
      sampleOps,
      samples,
      checkpoints: this.ckpts.length,
      checkpointEvery: this.every,
      checkpointBytes: this.ckptBytes,
      checkpointBudget: this.budget,
      checkpointFailures: this.ckptFailed,
      runError: s.runError(),
      endHandles: live.handles,
      endHandlesMore: live.more,
    };
    this.restoreTo(this.ckpts[0]);
    return { meta: this.meta, frame: this.frame() };
  }

  private heapUsed(): number {
    return this.mod._svz_heap_used() >>> 0;
  }

  /** Checkpoint the current position (op `op` done), within the budget.
   * False when there was no memory for it, even after thinning. */
  private checkpointHere(op: number): boolean {
    const s = this.session;
    for (let attempt = 0; ; attempt++) {
      const h0 = this.heapUsed();
      const id = s.checkpoint();
      if (id >= 0) {
        const bytes = Math.max(0, this.heapUsed() - h0);
        this.ckpts.push({ id, seq: s.seq(), op, bytes });
        this.ckptBytes += bytes;
        while (this.ckptBytes > this.budget && this.thin()) {
          /* fewer checkpoints until they fit */
        }
        return this.ckpts[this.ckpts.length - 1].id === id;
      }
      // svz_checkpoint returns -1 when wasm malloc fails: make room, retry once
      this.ckptFailed++;
      if (attempt > 0 || !this.thin()) return false;
    }
  }

  /** Drops every other checkpoint after the first (op 0) and doubles the
   * interval; false when only the first is left. */
  private thin(): boolean {
    if (this.ckpts.length <= 1) return false;
    const keep = [this.ckpts[0]];
    for (let i = 1; i < this.ckpts.length; i++) {
      const c = this.ckpts[i];
      if (i % 2 === 0) keep.push(c);
      else {
        this.session.checkpointDrop(c.id);
        this.ckptBytes -= c.bytes;
      }
    }
    this.ckpts = keep;
    this.every *= 2;
    return true;
  }

  private restoreTo(c: Checkpoint): void {
    if (this.session.restore(c.id) !== 0) throw new Error(`cannot go back to op ${c.op}: restoring its checkpoint failed (out of wasm memory?)`);
    this.lastSnap = null;
  }

  snapshot(): Snapshot {
    return JSON.parse(this.session.snapshotJson()) as Snapshot;
  }

  events(from: number, max: number): SvzEvent[] {
    const doc = JSON.parse(this.session.eventsJson(Math.max(0, from), max)) as { events: SvzEvent[] };
    return doc.events;
  }

  frame(hit?: boolean): Frame {
    const s = this.session;
    const seq = s.seq();
    const snap = this.snapshot();
    this.lastSnap = snap;
    const recent = seq > 0 ? this.events(seq - RECENT, RECENT).filter((e) => e.seq < seq) : [];
    const last = recent.length ? recent[recent.length - 1] : null;
    return {
      seq,
      opsDone: s.opsDone(),
      opsTotal: s.opsTotal(),
      inflight: snap.inflight,
      stopped: snap.stopped,
      runError: s.runError(),
      snapshot: snap,
      event: last && last.seq === seq - 1 ? last : null,
      recent,
      hit,
    };
  }

  /** Run up to `count` micro-steps forward. */
  stepN(count: number): number {
    const s = this.session;
    let n = 0;
    while (n < count) {
      const r = s.step();
      if (r !== 1) break;
      n++;
    }
    this.lastSnap = null;
    return n;
  }

  step(count: number): Frame {
    this.stepN(count);
    return this.frame();
  }

  /** Finish the op in flight (or run the next one), `count` times. */
  stepOp(count: number): Frame {
    const s = this.session;
    const snap = this.lastSnap ?? this.snapshot();
    let target = s.opsDone() + count;
    if (snap.inflight === 0 && s.seq() === 0 && count > 0) target = count;
    s.runToOp(Math.min(target, s.opsTotal()));
    this.lastSnap = null;
    return this.frame();
  }

  /** Position the model exactly at micro-step `seq` (0 = before anything). */
  seekSeqNoFrame(seq: number): void {
    const s = this.session;
    const target = Math.max(0, Math.min(seq, this.meta?.seqTotal ?? seq));
    const cur = s.seq();
    // nearest checkpoint strictly before the target (so the event of the
    // step target-1 is produced again and readable), or 0
    let c = this.ckpts[0];
    for (const k of this.ckpts) {
      if (k.seq < target) c = k;
      else break;
    }
    if (!(cur >= c.seq && cur <= target)) this.restoreTo(c);
    const n = target - s.seq();
    this.replayed += Math.max(0, n);
    this.stepN(n);
  }

  seek(seq: number): Frame {
    this.seekSeqNoFrame(seq);
    return this.frame();
  }

  /** Position the model at the start of op `op` (op ops completed, none in flight). */
  seekOp(op: number): Frame {
    const s = this.session;
    const target = Math.max(0, Math.min(op, s.opsTotal()));
    let c = this.ckpts[0];
    for (const k of this.ckpts) {
      if (k.op < target || (target === 0 && k.op === 0)) c = k;
      else break;
    }
    const snap = this.lastSnap ?? this.snapshot();
    const cur = s.opsDone();
    // forward from here is fine when we are at or after the checkpoint and
    // not past the target
    const notPast = cur < target || (cur === target && snap.inflight === 0);
    if (!(s.seq() >= c.seq && notPast)) this.restoreTo(c);
    const before = s.seq();
    if (target > 0) s.runToOp(target);
    this.replayed += s.seq() - before;
    this.lastSnap = null;
    return this.frame();
  }

  /** Run forward until the breakpoint's condition holds for a step; stop
   * right after that step. At most maxSteps steps. */
  runUntil(bp: Breakpoint, maxSteps = 50_000_000, progress?: Progress): Frame {
    // nothing found: back where the search started (the caller says so)
    const start = this.session.seq();
    const f = this.search(bp, maxSteps, progress);
    if (f.hit) return f;
    this.seekSeqNoFrame(start);
    return this.frame(false);
  }

  private search(bp: Breakpoint, maxSteps: number, progress?: Progress): Frame {
    if (bp.kind === 'object' || bp.kind === 'object_freed') return this.runUntilObject(bp.obj ?? -1, maxSteps, bp.kind === 'object_freed');
    const s = this.session;
    const objSlab: number | null = null;
    let t0 = Date.now();
    for (const { evs } of this.batches(4096, maxSteps)) {
      const hit = evs.find((e) => matchEvent(bp, e, objSlab));
      if (hit) {
        this.seekSeqNoFrame(hit.seq + 1);
        return this.frame(true);
      }
      if (progress && Date.now() - t0 > 100) {
        progress(s.opsDone(), s.opsTotal(), 'breakpoint');
        t0 = Date.now();
      }
    }
    return this.frame(false);
  }

  /** Steps forward in batches of `batch` micro-steps (at most `maxSteps` in
   * all, ending early at the end of the trace), yielding each batch's first
   * seq, its length and its events; the model is at the batch's end. */
  private *batches(batch: number, maxSteps: number): Generator<{ from: number; n: number; evs: SvzEvent[] }> {
    let ran = 0;
    while (ran < maxSteps) {
      const from = this.session.seq();
      const n = this.stepN(Math.min(batch, maxSteps - ran));
      ran += n;
      if (n === 0) return;
      yield { from, n, evs: this.events(from, n) };
      if (n < batch) return;
    }
  }

  /** Run until object `obj` changes state or place (see objectWhere), or
   * with `freed` until it leaves its caller: any free (kmem_cache_free,
   * kfree, kmem_cache_free_bulk, kfree_rcu), whichever event moved it. */
  private runUntilObject(obj: number, maxSteps: number, freed = false): Frame {
    const s = this.session;
    const hit = (was: string, now: string) => (freed ? callerHolds(was) && !callerHolds(now) : was !== now);
    let where = objectWhere(this.lastSnap ?? this.snapshot(), obj);
    for (const { from, n, evs } of this.batches(256, maxSteps)) {
      const direct = evs.find((e) => e.obj === obj);
      // moves of many objects name only the last one: look closer
      const bulk = evs.some((e) => e.kind === 'new_slab' || e.kind === 'discard_slab' || Math.abs(e.count) > 1);
      const now = objectWhere(this.snapshot(), obj);
      if (now !== where || direct || bulk) {
        // find the first step of the batch after which it differs
        this.seekSeqNoFrame(from);
        let was = where;
        for (let i = 0; i < n; i++) {
          this.stepN(1);
          const seq = s.seq();
          const w = objectWhere(this.snapshot(), obj);
          if ((!freed && direct && seq > direct.seq) || hit(was, w)) return this.frame(true);
          was = w;
        }
      }
      where = now;
    }
    return this.frame(false);
  }

  text(what: 'slabinfo' | 'sysfs' | 'stats' | 'validate' | 'reports', cache?: string): string {
    const s = this.session;
    switch (what) {
      case 'slabinfo':
        return s.slabinfo();
      case 'sysfs':
        return s.sysfs(cache ?? '');
      case 'stats':
        return s.statsText();
      case 'validate':
        return s.validate();
      case 'reports':
        return s.reports();
    }
  }
}
