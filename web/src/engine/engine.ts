// The engine: one slubviz session, its checkpoints and the seeks over them.
// Pure TypeScript over the wasm module (no worker or DOM globals), so the
// worker (worker.ts) and Node tests can both drive it.
//
// Time travel: opening a trace runs it once to the end (the "pre-pass"),
// taking a checkpoint (svz_checkpoint) every `checkpointEvery` ops and
// sampling the summed SLUB_STATS for the timeline and sparklines.
// With `foregroundMs` set, open() returns once that long has passed (and
// the first checkpoints are taken), the first screen is drawn, and the
// rest of the pre-pass runs later in slices (prepassSlice(), which the
// worker calls while the page is idle): the meta says how far it got
// (prepassDone, prepassOps) and is final once it is done. A seek past the
// pre-pass's frontier runs forward from its last checkpoint (with
// progress): the same state as after the whole pre-pass.
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
//
// Steps chosen by hand (stepCpu, svz_step_cpu; hand.ts) are part of the
// run: every replay (seeks, step back, the pre-pass) runs CPU c at the
// steps the person chose it, and the schedule elsewhere. A step chosen at
// seq s replaces the old future: the hand steps after s, the checkpoints
// and pre-pass samples taken after s are dropped and the pre-pass runs on
// from s (the "tail"). Op seeks over hand steps cannot use svz_run_to_op
// (it would run past them): advanceToOp() steps up to each hand step and
// stops where svz_run_to_op would (every op below the target returned:
// the snapshot's first_pending).
import type { Breakpoint, EndHandle, Frame, HandRefusal, HandReply, OpenResult, RunMeta } from './protocol';
import { SlubvizSession, type SlubvizModule } from '../../../core/wasm/slubviz-api';
import { encodeHand, handBefore, HandMap, stepsLine, type HandStep } from './hand';
import type { Snapshot, SvzEvent } from './types';

interface Checkpoint {
  id: number;
  seq: number;
  op: number;
  /** wasm heap bytes it takes */
  bytes: number;
}

export type Progress = (done: number, total: number, what: string) => void;

/** The pre-pass's own state, kept so that it can run on after a step
 * chosen by hand (the tail). */
interface Prepass {
  trace: string;
  total: number;
  bucketEnds: Set<number>;
  /** ops to run to, ascending */
  targets: number[];
  sampleOps: number[];
  /** the seq each sample was taken at, and the index in `targets` of the
   * target it was taken at (-1: the first, at op 0) */
  sampleSeqs: number[];
  sampleTargets: number[];
  samples: Record<string, number[]>;
  /** index in `targets` of the next target to run to */
  next: number;
  /** the step the pre-pass has reached (its frontier) */
  at: number;
  /** a checkpoint at the frontier when no kept one is there (a slice
   * stopped between two checkpoints), dropped when the pre-pass goes on */
  atCkpt: number | null;
}

/** Most events a frame's lanes window carries (LANES_MAX, the lanes view). */
export const LANES_MAX = 2000;
/** Hand steps further apart than this: svz_run_to_op probes instead of single steps. */
const PROBE = 2048;

const MAX_CHECKPOINTS = 256;
/** a run of at most this many ops gets its whole pre-pass before the
 * first screen, whatever foregroundMs says (a fraction of a second: its
 * meta is final at once) */
export const WHOLE_PREPASS_OPS = 50_000;
/** a long seek (past the pre-pass's frontier) reports progress between chunks of this many ops or steps */
const SEEK_CHUNK_OPS = 20_000;
const SEEK_CHUNK_STEPS = 100_000;
/** a seek runs whole ops while its target is further than this, or than
 * a checkpoint's bytes / 64 (forwardTo) */
const RUN_OPS_MIN_STEPS = 4096;
/** A seek that runs more steps than this past the kept checkpoints leaves
 * an anchor (Engine.anchor) */
const ANCHOR_MIN_STEPS = 20_000;
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

/** A hand step that cannot run: CPU `cpu` has nothing it may run at `seq`. */
export class HandStepRefused extends Error {
  constructor(
    readonly seq: number,
    readonly cpu: number,
  ) {
    super(`step ${seq}: CPU ${cpu} has nothing it may run`);
  }
}

export class Engine {
  private s: SlubvizSession | null = null;
  private ckpts: Checkpoint[] = [];
  /** bytes of the checkpoints kept */
  private ckptBytes = 0;
  /** svz_checkpoint calls that failed (out of wasm memory) */
  private ckptFailed = 0;
  /** A checkpoint a seek past the pre-pass's frontier left on its way
   * (the frame's window of events before where it went). Going back there
   * restores it instead of running that far again: home() after every
   * background slice, the next seek nearby. One at a time, counted in the
   * checkpoint bytes; gone once the pre-pass is done (its checkpoints
   * are near everywhere then) and with the run. */
  private anchor: Checkpoint | null = null;
  /** ops between two checkpoints (doubles when they are thinned) */
  private every = 1;
  private lastSnap: Snapshot | null = null;
  meta: RunMeta | null = null;
  /** micro-steps run by seeks since open (a measure of replay work) */
  replayed = 0;
  /** forwardTo()'s runs of whole ops: kept, and undone (they went past the target) */
  readonly opRuns = { kept: 0, undone: 0 };
  /** checkpoint memory budget in bytes (CHECKPOINT_BUDGET) */
  readonly budget: number;
  /** steps chosen by hand (hand.ts) */
  private hand = new HandMap();
  private pp: Prepass | null = null;
  /** events of the frame's lanes window (0: none) */
  lanesWindow = 0;
  /** ms the pre-pass may take before open() returns, the rest running in
   * prepassSlice(); Infinity: all of it */
  foregroundMs = Infinity;
  /** where the person is while a pre-pass slice has moved the session
   * away (null: the session is there) */
  private userSeq: number | null = null;
  /** bumped by every open and close: a pre-pass driver of an older run stops */
  generation = 0;

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
      this.dropAnchor();
      for (const c of this.ckpts) this.s.checkpointDrop(c.id);
      this.s.close();
    }
    this.s = null;
    this.ckpts = [];
    this.ckptBytes = 0;
    this.ckptFailed = 0;
    this.meta = null;
    this.hand = new HandMap();
    this.handDropped = -1;
    this.pp = null;
    this.userSeq = null;
    this.generation++;
  }

  /** The pre-pass has run to the end of the run (the meta is final). */
  get prepassDone(): boolean {
    return !this.pp || this.pp.next >= this.pp.targets.length;
  }

  /** Opens a trace and runs the pre-pass, replaying `hand` (steps chosen
   * by hand, hand.ts); hand steps that cannot run (a CPU with nothing it
   * may run at that step) are dropped from there on (meta.handDropped). */
  open(trace: string, preset: string, sets: string, checkpointEvery = 0, progress?: Progress, hand: readonly HandStep[] = []): OpenResult {
    // the text of the run open (another preset, other switches): its
    // parsed trace again, not a parse (a million ops take a while)
    let s: SlubvizSession | null = null;
    if (this.s && this.pp?.trace === trace) {
      try {
        s = this.s.reopen({ preset, sets: sets || null });
      } catch (e) {
        this.close();
        throw e;
      }
    }
    this.close();
    s ??= SlubvizSession.open(this.mod, trace, { preset, sets: sets || null });
    this.hand = new HandMap(hand);
    return this.prepass(s, trace, checkpointEvery, progress);
  }

  /** Like open(), on a session already opened from `trace` (an import's:
   * the v1 text it exported is `trace`, so it is the same run). */
  adopt(s: SlubvizSession, trace: string, progress?: Progress): OpenResult {
    this.close();
    return this.prepass(s, trace, 0, progress);
  }

  /** The steps chosen by hand, in their text form (hand.ts). */
  handText(): string {
    return encodeHand(this.hand.steps);
  }

  /** One micro-step: the CPU chosen by hand at this seq, else the
   * schedule's. A hand step whose CPU cannot run (from a link) throws
   * HandStepRefused. */
  private stepOne(): number {
    const s = this.session;
    const seq = s.seq();
    const cpu = this.hand.at(seq);
    if (cpu === undefined) return s.step();
    const r = s.stepCpu(cpu);
    if (r === 0) throw new HandStepRefused(seq, cpu);
    return r;
  }

  /** Every op below `op` has returned (svz_run_to_op(op) would not step). */
  private doneBelow(op: number): boolean {
    if (op <= 0) return true;
    if (this.session.opsDone() < op) return false;
    return (this.snapshot().first_pending ?? op) >= op;
  }

  /** `run` from a checkpoint taken first, undone (the checkpoint restored)
   * if it left the session past step `bound`: its result, whether it was
   * kept, and the step and ops done it reached. null: no wasm memory for
   * the checkpoint, nothing run. */
  private runUnlessPast(bound: number, run: () => number, what: string): { r: number; kept: boolean; seq: number; ops: number } | null {
    const s = this.session;
    const id = s.checkpoint();
    if (id < 0) return null;
    const r = run();
    this.lastSnap = null;
    const out = { r, kept: s.seq() <= bound, seq: s.seq(), ops: s.opsDone() };
    const restored = out.kept || s.restore(id) === 0;
    s.checkpointDrop(id);
    if (!restored) throw new Error(`out of wasm memory while ${what}`);
    return out;
  }

  /** svz_run_to_op(op) of a run with steps chosen by hand: the same stop
   * (the first step after which every op below `op` has returned), the
   * hand steps on the way run. Returns what svz_run_to_op does: the ops
   * done, or -1 if the run stopped. */
  private advanceToOp(op: number): number {
    const s = this.session;
    for (;;) {
      const h = this.hand.next(s.seq());
      if (h === undefined) return s.runToOp(op);
      const from = s.seq();
      if (h - from > PROBE) {
        // far from the next hand step: try svz_run_to_op, and if it ran
        // past the hand step, go back and take the plain steps up to it
        // (the target was not reached before it)
        const run = this.runUnlessPast(h, () => s.runToOp(op), 'replaying the steps chosen by hand');
        if (run?.kept) return run.r;
        if (run) {
          if (this.plainSteps(h - from) < h - from) return this.stoppedOr();
          continue;
        }
      }
      if (this.doneBelow(op)) return s.opsDone();
      if (this.stepOne() !== 1) return this.stoppedOr();
    }
  }

  /** n plain svz_step()s (no hand step among them): steps run. */
  private plainSteps(n: number): number {
    const s = this.session;
    let i = 0;
    while (i < n && s.step() === 1) i++;
    return i;
  }

  private stoppedOr(): number {
    return this.snapshot().stopped ? -1 : this.session.opsDone();
  }

  /** svz_export_v1 of the open session. */
  exportV1(): string {
    this.home();
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
    // the stat totals alone (svz_stat_totals_json), not a snapshot: a
    // snapshot of a big state costs more than the ops between two buckets
    const first = s.statTotals();
    const samples: Record<string, number[]> = {};
    for (const k of Object.keys(first)) samples[k] = [first[k]];
    this.pp = { trace, total, bucketEnds, targets, sampleOps: [0], sampleSeqs: [0], sampleTargets: [-1], samples, next: 0, at: 0, atCkpt: null };
    // in the foreground: up to foregroundMs, and past the first checkpoint
    // after op 0 (a seek has one to start from)
    const fg = total <= WHOLE_PREPASS_OPS ? Infinity : this.foregroundMs;
    this.runPrepass(progress, (ms) => ms >= fg && this.ckpts.length > 1);
    this.restoreTo(this.ckpts[0]);
    return { meta: this.meta!, frame: this.frame(), hand: this.handText() };
  }

  /** Runs the pre-pass on for about `ms` (up to 4 × `ms` to end at a kept
   * checkpoint), at least to its next target (a background slice); the
   * next request finds the session where the person left it. */
  prepassSlice(ms: number, progress?: Progress): void {
    if (this.prepassDone) return;
    this.userSeq ??= this.session.seq();
    // stop at a kept checkpoint if one comes soon (no frontier checkpoint
    // to copy: a big run's arena is megabytes)
    const s = this.session;
    const atCheckpoint = () => this.ckpts[this.ckpts.length - 1].seq === s.seq();
    this.runPrepass(progress, (t, ran) => ran > 0 && t >= ms && (atCheckpoint() || t >= 4 * ms), true);
  }

  /** Back where the person was, after a pre-pass slice moved the session. */
  private home(): void {
    const seq = this.leaveFrontier();
    if (seq !== null) this.seekSeqNoFrame(seq);
  }

  /** The session is about to leave the pre-pass's frontier, where slices
   * left it: a checkpoint there first (unless a kept one is there), so the
   * pass goes on from it. Answers where the person was (null: slices did
   * not move the session). */
  private leaveFrontier(): number | null {
    const seq = this.userSeq;
    if (seq === null) return null;
    this.userSeq = null;
    this.markFrontier();
    return seq;
  }

  /** The pre-pass run on until `reached` (the session is at its frontier)
   * or the end of the run; the session is left at the frontier. */
  private prepassTo(reached: () => boolean, progress?: Progress): void {
    if (this.prepassDone) return;
    this.userSeq = null;
    this.runPrepass(progress, () => reached());
  }

  /** The pre-pass from the current position (op 0, or just after a step
   * chosen by hand) to the end of the run: checkpoints, samples,
   * then the meta. */
  private runPrepass(progress?: Progress, stop: (ms: number, ran: number) => boolean = () => false, slice = false): void {
    const s = this.session;
    const pp = this.pp!;
    this.toFrontier();
    let lastOp = pp.sampleOps[pp.sampleOps.length - 1];
    const start = Date.now();
    let t0 = start;
    for (let ran = 0; pp.next < pp.targets.length; ran++) {
      if (stop(Date.now() - start, ran)) break;
      const ti = pp.next++;
      const target = pp.targets[ti];
      let r: number;
      try {
        r = this.advanceToOp(target);
      } catch (e) {
        // hand steps that cannot run (a bad link): dropped from there on
        if (!(e instanceof HandStepRefused)) throw e;
        this.hand = new HandMap(handBefore(this.hand.steps, e.seq));
        this.handDropped = e.seq;
        r = s.runToOp(target);
      }
      const done = s.opsDone();
      // a checkpoint bound (under an interleaving schedule other CPUs may
      // have finished ops past the target: the checkpoint's op is the ops
      // done, at most the first op not returned, so seekOp stays right)
      const lastCk = this.ckpts[this.ckpts.length - 1];
      if (target % this.every === 0 && done > lastCk.op && s.seq() > lastCk.seq) this.checkpointHere(done);
      if ((done > lastOp && (pp.bucketEnds.has(target) || done >= pp.total)) || r < 0) {
        const now = s.statTotals();
        pp.sampleOps.push(done);
        pp.sampleSeqs.push(s.seq());
        pp.sampleTargets.push(ti);
        for (const k of Object.keys(now)) {
          if (!pp.samples[k]) pp.samples[k] = new Array(pp.sampleOps.length - 1).fill(0);
          pp.samples[k].push(now[k]);
        }
        lastOp = done;
      }
      if (r < 0) pp.next = pp.targets.length;
      if (progress && Date.now() - t0 > 100) {
        progress(done, pp.total, 'pre-pass');
        t0 = Date.now();
      }
    }
    this.lastSnap = null;
    pp.at = s.seq();
    const done = this.prepassDone;
    if (done) this.dropAnchor();
    // a slice leaves the session at the frontier: its checkpoint waits
    // until a request moves it (leaveFrontier)
    if (!done && !slice) this.markFrontier();
    const live = done ? liveOwners(this.snapshot()) : { handles: [], more: 0 };
    this.meta = {
      opsTotal: pp.total,
      // until the pre-pass is done: the steps it has run so far
      seqTotal: pp.at,
      prepassDone: done,
      prepassOps: done ? pp.total : s.opsDone(),
      description: describeTrace(pp.trace),
      sampleOps: pp.sampleOps,
      samples: pp.samples,
      checkpoints: this.ckpts.length,
      checkpointEvery: this.every,
      checkpointBytes: this.ckptBytes,
      checkpointBudget: this.budget,
      checkpointFailures: this.ckptFailed,
      runError: s.runError(),
      endHandles: live.handles,
      endHandlesMore: live.more,
      handSteps: this.hand.size,
      handDropped: this.handDropped,
    };
  }

  /** A checkpoint at the frontier (the session is there), unless a kept
   * one or an earlier mark is there. */
  private markFrontier(): void {
    const pp = this.pp!;
    const last = this.ckpts[this.ckpts.length - 1];
    if (last.seq === pp.at || pp.atCkpt !== null) return;
    const id = this.session.checkpoint();
    // no memory for it: the pre-pass goes on from the last kept one instead
    pp.atCkpt = id >= 0 ? id : null;
  }

  /** The session at the pre-pass's frontier (a seek or a step may have
   * moved it): its checkpoint there, else the last kept one run forward. */
  private toFrontier(): void {
    const s = this.session;
    const pp = this.pp!;
    if (pp.atCkpt !== null) {
      if (s.seq() !== pp.at && s.restore(pp.atCkpt) !== 0) throw new Error('out of wasm memory while running the pre-pass on');
      s.checkpointDrop(pp.atCkpt);
      pp.atCkpt = null;
      this.lastSnap = null;
    }
    if (s.seq() === pp.at) return;
    const last = this.ckpts[this.ckpts.length - 1];
    this.restoreTo(last);
    this.forwardTo(pp.at);
  }

  /** seq of the first hand step a replay could not run, or -1 */
  private handDropped = -1;

  /** A step chosen by hand: CPU `cpu` runs one micro-step now (whatever
   * the schedule would pick). It replaces the future: the hand steps
   * from here on, the checkpoints and samples after here go, and the
   * pre-pass runs on from the new step. `refused` says why nothing ran
   * (the run has stopped, the CPU has nothing it may run now). */
  stepCpu(cpu: number, progress?: Progress): HandReply {
    this.finishPrepass(progress);
    const s = this.session;
    const seq = s.seq();
    const snap = this.lastSnap ?? this.snapshot();
    const refuse = (why: HandRefusal): HandReply => ({ frame: this.frame(), meta: this.meta!, hand: this.handText(), refused: why });
    if (snap.stopped) return refuse('stopped');
    if (!Number.isInteger(cpu) || cpu < 0 || cpu >= snap.topology.nr_cpus) return refuse('no_cpu');
    const r = s.stepCpu(cpu);
    this.lastSnap = null;
    if (r === 0) return refuse(snap.cpus[cpu]?.op === null ? 'waits' : 'cannot');
    this.hand = new HandMap([...handBefore(this.hand.steps, seq), { seq, cpu }]);
    this.handDropped = -1;
    this.retail(seq, progress);
    return { frame: this.frame(), meta: this.meta!, hand: this.handText(), refused: null };
  }

  /** Forget the steps chosen by hand: the schedule's run, at the same
   * step if it is before the first hand step, else at the first. */
  clearHand(progress?: Progress): HandReply {
    this.finishPrepass(progress);
    const s = this.session;
    const first = this.hand.next(0);
    if (first === undefined) return { frame: this.frame(), meta: this.meta!, hand: '', refused: null };
    const at = Math.min(s.seq(), first);
    this.seekSeqNoFrame(at);
    this.hand = new HandMap();
    this.handDropped = -1;
    // the runs part at the first hand step: what came before it stays
    this.retail(first, progress);
    return { frame: this.frame(), meta: this.meta!, hand: '', refused: null };
  }

  /** The run changed after step `seq` (a hand step at seq, or none from
   * seq + 1 on): drop what the pre-pass learnt after it, run the pre-pass
   * on from the current position, come back to seq + 1. */
  private retail(seq: number, progress?: Progress): void {
    const s = this.session;
    const here = s.seq();
    // checkpoints taken after step seq ran belong to the old future
    while (this.ckpts.length > 1 && this.ckpts[this.ckpts.length - 1].seq > seq) {
      const c = this.ckpts.pop()!;
      s.checkpointDrop(c.id);
      this.ckptBytes -= c.bytes;
    }
    const pp = this.pp!;
    let keep = 1;
    while (keep < pp.sampleSeqs.length && pp.sampleSeqs[keep] <= seq) keep++;
    pp.sampleOps.length = keep;
    pp.sampleSeqs.length = keep;
    pp.sampleTargets.length = keep;
    for (const k of Object.keys(pp.samples)) pp.samples[k].length = keep;
    // on from here (the step just chosen), after the last sample kept
    pp.next = pp.sampleTargets[keep - 1] + 1;
    pp.at = s.seq();
    this.runPrepass(progress);
    this.seekSeqNoFrame(here);
  }

  /** The whole pre-pass (a change of the run needs all it learns up to
   * here), back where the person is. */
  private finishPrepass(progress?: Progress): void {
    if (this.prepassDone) return;
    const seq = this.userSeq ?? this.session.seq();
    this.prepassTo(() => false, progress);
    this.seekSeqNoFrame(seq);
  }

  /** The run up to here as a `steps` line (docs/trace-format.md §3.1):
   * the CPU of every micro-step so far. With `schedule explicit`, the
   * trace replays this interleaving in the CLI (then goes on serially). */
  stepsLine(): string {
    this.home();
    const s = this.session;
    const here = s.seq();
    let cpus: number[] = [];
    const ring = 60000;
    if (here <= ring) cpus = this.events(0, here).map((e) => e.cpu);
    if (cpus.length !== here) {
      // events out of the ring, or of a timeline a restore left: replay
      // from the start in batches
      cpus = [];
      this.restoreTo(this.ckpts[0]);
      while (s.seq() < here) {
        const from = s.seq();
        this.stepN(Math.min(ring, here - from));
        // the step that stops the run counts too
        const n = s.seq() - from;
        if (n === 0) break;
        for (const e of this.events(from, n)) cpus.push(e.cpu);
      }
    }
    return stepsLine(cpus);
  }

  private heapUsed(): number {
    return this.mod._svz_heap_used() >>> 0;
  }

  /** Checkpoint the current position (op `op` done), within the budget.
   * False when there was no memory for it, even after thinning. */
  private checkpointHere(op: number): boolean {
    for (let attempt = 0; ; attempt++) {
      const c = this.takeCheckpoint(op);
      if (c) {
        this.ckpts.push(c);
        while (this.ckptBytes > this.budget && this.thin()) {
          /* fewer checkpoints until they fit */
        }
        return this.ckpts[this.ckpts.length - 1].id === c.id;
      }
      // svz_checkpoint returns -1 when wasm malloc fails: make room, retry once
      this.ckptFailed++;
      if (attempt > 0 || !this.thin()) return false;
    }
  }

  /** A checkpoint of the session where it is (op `op` done), its heap
   * bytes counted in ckptBytes; null when wasm malloc failed. */
  private takeCheckpoint(op: number): Checkpoint | null {
    const s = this.session;
    const h0 = this.heapUsed();
    const id = s.checkpoint();
    if (id < 0) return null;
    const bytes = Math.max(0, this.heapUsed() - h0);
    this.ckptBytes += bytes;
    return { id, seq: s.seq(), op, bytes };
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

  /** The session's snapshot; slabs whose owners did not change since the
   * last one share its owners arrays (SlubvizSession.snapshotShared), which
   * the packed frames reuse (wire.ts). */
  snapshot(): Snapshot {
    return this.session.snapshotShared() as Snapshot;
  }

  events(from: number, max: number): SvzEvent[] {
    const doc = JSON.parse(this.session.eventsJson(Math.max(0, from), max)) as { events: SvzEvent[] };
    return doc.events;
  }

  frame(hit?: boolean): Frame {
    this.home();
    const s = this.session;
    const seq = s.seq();
    const snap = this.snapshot();
    this.lastSnap = snap;
    const w = this.frameWindow();
    let evs = seq > 0 ? this.events(seq - w, w).filter((e) => e.seq < seq) : [];
    if (evs.length < Math.min(w, seq)) {
      // a restore leaves the events before its checkpoint unreadable (an
      // abandoned timeline's): replay the window from further back
      this.replayWindow(seq, w);
      this.lastSnap = snap;
      evs = this.events(seq - w, w).filter((e) => e.seq < seq);
    }
    const recent = evs.slice(-RECENT);
    const last = recent.length ? recent[recent.length - 1] : null;
    let lanes: Frame['lanes'];
    if (this.lanesWindow > 0) {
      lanes = evs.slice(-this.lanesWindow);
      for (const e of lanes) if (this.hand.at(e.seq) !== undefined) e.hand = true;
    }
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
      ...(lanes ? { lanes } : {}),
    };
  }

  /** Events a frame reads: its recent ones, or the lanes window. */
  private frameWindow(): number {
    return Math.min(LANES_MAX, Math.max(RECENT, this.lanesWindow));
  }

  /** Back at `seq` from a checkpoint at least `w` steps before it, so the
   * last `w` events are readable again. */
  private replayWindow(seq: number, w: number): void {
    let c = this.ckpts[0];
    for (const k of this.ckpts) {
      if (k.seq <= seq - w) c = k;
      else break;
    }
    this.restoreTo(c);
    this.replayed += seq - c.seq;
    this.forwardTo(seq);
  }

  /** Run up to `count` micro-steps forward. */
  stepN(count: number): number {
    const s = this.session;
    let n = 0;
    if (this.hand.next(s.seq()) === undefined) {
      while (n < count && s.step() === 1) n++;
    } else {
      while (n < count && this.stepOne() === 1) n++;
    }
    this.lastSnap = null;
    return n;
  }

  step(count: number): Frame {
    this.home();
    this.stepN(count);
    return this.frame();
  }

  /** Finish the op in flight (or run the next one), `count` times. */
  stepOp(count: number): Frame {
    this.home();
    const s = this.session;
    const snap = this.lastSnap ?? this.snapshot();
    let target = s.opsDone() + count;
    if (snap.inflight === 0 && s.seq() === 0 && count > 0) target = count;
    this.advanceToOp(Math.min(target, s.opsTotal()));
    this.lastSnap = null;
    return this.frame();
  }

  /** Position the model exactly at micro-step `seq` (0 = before anything). */
  seekSeqNoFrame(seq: number, progress?: Progress): void {
    const s = this.session;
    this.leaveFrontier();
    // past the pre-pass's frontier: forward from its last checkpoint (the
    // pre-pass goes on later from its own frontier)
    const target = Math.max(0, this.prepassDone ? Math.min(seq, this.meta?.seqTotal ?? seq) : seq);
    const cur = s.seq();
    // nearest checkpoint at least the frame's window of events before the
    // target (so those events are produced again and readable: a restore
    // leaves the ones before its checkpoint unreadable), or 0
    const back = this.frameWindow();
    let c = this.ckpts[0];
    for (const k of this.ckpts) {
      if (k.seq <= target - back) c = k;
      else break;
    }
    const a = this.anchor;
    if (a && a.seq > c.seq && a.seq <= target - back) c = a;
    if (!(cur >= c.seq && cur <= target)) this.restoreTo(c);
    // far past every checkpoint (beyond the pre-pass's frontier): an
    // anchor on the way, for the next time the session comes back here
    const anchorAt = target - back;
    if (!this.prepassDone && anchorAt - s.seq() > ANCHOR_MIN_STEPS) {
      this.replayed += anchorAt - s.seq();
      this.forwardTo(anchorAt, progress);
      if (s.seq() === anchorAt) this.setAnchor();
    }
    const n = target - s.seq();
    this.replayed += Math.max(0, n);
    this.forwardTo(target, progress);
  }

  /** The anchor here (the one before goes); none if it does not fit the budget. */
  private setAnchor(): void {
    this.dropAnchor();
    this.anchor = this.takeCheckpoint(this.session.opsDone());
    if (this.ckptBytes > this.budget) this.dropAnchor();
  }

  private dropAnchor(): void {
    const a = this.anchor;
    if (!a) return;
    this.anchor = null;
    this.s?.checkpointDrop(a.id);
    this.ckptBytes -= a.bytes;
  }

  /** Forward to micro-step `end` (or the end of the run), with progress.
   * Far from it, runs of whole ops (svz_run_to_op: a serial run fuses an
   * op's steps, 3-6x faster than a call per svz_step), each from a
   * checkpoint taken first and restored if the run went past `end`; then
   * single steps. Every path to a step leaves the same model and events
   * (a restore on the same timeline keeps the events before its
   * checkpoint readable). Lesson 06's v6.19 stop on ublk-bio256, past the
   * pre-pass's frontier: the seek 127-139 -> 49 ms in Chromium. */
  private forwardTo(end: number, progress?: Progress): void {
    const s = this.session;
    let t0 = Date.now();
    const report = () => {
      if (progress && Date.now() - t0 > 100) {
        progress(s.opsDone(), s.opsTotal(), 'seek');
        t0 = Date.now();
      }
    };
    // each run aims at half the steps left, at an estimate of the steps per
    // op ahead: the run's so far at first, then the last run's (an
    // overshoot's at once, a shorter one's by halves)
    let perOp = this.stepsPerOp();
    // a run's checkpoint copies the arena (a 600k-op import's: ~7 MB, ms):
    // worth it only with many more steps left (~75 ns saved a step)
    const minSteps = Math.max(RUN_OPS_MIN_STEPS, this.ckptBytes / Math.max(1, this.ckpts.length) / 64);
    while (end - s.seq() > minSteps) {
      const seq = s.seq();
      const done = s.opsDone();
      const ops = Math.floor((end - seq) / perOp / 2);
      if (ops < 1 || done >= s.opsTotal()) break;
      const run = this.runUnlessPast(end, () => this.advanceToOp(Math.min(s.opsTotal(), done + ops)), 'seeking');
      if (!run) break; // no wasm memory for its checkpoint: single steps
      const rate = run.ops > done ? (run.seq - seq) / (run.ops - done) : perOp;
      if (run.kept) {
        this.opRuns.kept++;
        if (run.r < 0 || run.seq === seq) break; // the run stopped, or ended
        perOp = Math.max(1, rate, perOp / 2); // down slowly, up at once
      } else {
        this.opRuns.undone++;
        perOp = Math.max(2 * perOp, rate);
      }
      report();
    }
    while (s.seq() < end && this.stepN(Math.min(SEEK_CHUNK_STEPS, end - s.seq())) > 0) report();
  }

  /** Micro-steps an op takes in this run so far (the pre-pass's, else the
   * session's), at least 1. */
  private stepsPerOp(): number {
    const m = this.meta;
    const s = this.session;
    const [steps, ops] = m && m.prepassOps > 0 ? [m.seqTotal, m.prepassOps] : [s.seq(), s.opsDone()];
    return ops > 0 ? Math.max(1, steps / ops) : 1;
  }

  /** advanceToOp(target) in chunks of ops, with progress (running to an
   * op below the target first stops no later than the target would). */
  private forwardOps(target: number, progress?: Progress): void {
    const s = this.session;
    let t0 = Date.now();
    for (;;) {
      const next = Math.min(target, s.opsDone() + SEEK_CHUNK_OPS);
      if (this.advanceToOp(next) < 0 || next >= target) return;
      if (progress && Date.now() - t0 > 100) {
        progress(s.opsDone(), s.opsTotal(), 'seek');
        t0 = Date.now();
      }
    }
  }

  seek(seq: number, progress?: Progress): Frame {
    this.seekSeqNoFrame(seq, progress);
    return this.frame();
  }

  /** Position the model at the start of op `op` (op ops completed, none in flight). */
  seekOp(op: number, progress?: Progress): Frame {
    const s = this.session;
    this.leaveFrontier();
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
    if (target > 0) this.forwardOps(target, progress);
    this.replayed += s.seq() - before;
    this.lastSnap = null;
    return this.frame();
  }

  /** Run forward until the breakpoint's condition holds for a step; stop
   * right after that step. At most maxSteps steps. */
  runUntil(bp: Breakpoint, maxSteps = 50_000_000, progress?: Progress): Frame {
    this.home();
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
    this.home();
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
