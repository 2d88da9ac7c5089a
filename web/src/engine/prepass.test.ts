// The pre-pass in the background (engine.ts foregroundMs, prepassSlice;
// backend.ts 'prepass'): whatever the background pass has reached, every
// position, step and meta is the one the whole pre-pass gives.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { Backend } from './backend';
import { Engine, LANES_MAX, WHOLE_PREPASS_OPS } from './engine';
import type { ImportOk, RunMeta } from './protocol';
import { MemoryStorage } from './storage';
import { synthFtraceBlob } from './synth';
import { loadModule } from './testing';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

/** Past WHOLE_PREPASS_OPS (so open() stops early): rounds of 250 allocs
 * on one CPU freed on another, like web/bench/seek.ts's trace. */
const OPS = WHOLE_PREPASS_OPS + 5000;
const trace = () => `slubviz-trace 1
node 0 mem=4G
cpus 0-3 node=0
seed 11
cache churn-128 size=128
repeat ${Math.ceil(OPS / 500)} r {
  repeat 250 i {
    c{$r%4} alloc churn-128 o{$r}_{$i}
  }
  repeat 250 i {
    c{($r+1)%4} free churn-128 o{$r}_{$i}
  }
}
`;

/** What a position shows (the frame without its timing-free parts). */
function shown(f: { seq: number; opsDone: number; snapshot: unknown; event: unknown; recent: unknown }): string {
  return JSON.stringify([f.seq, f.opsDone, f.snapshot, f.event, f.recent]);
}

/** An engine whose open() ran only to its first checkpoint after op 0. */
function lazy(budget?: number): Engine {
  const e = new Engine(mod, budget === undefined ? {} : { budget });
  e.foregroundMs = 0;
  return e;
}

/** The meta but the checkpoints' bytes: measured on the wasm heap, they
 * move with the allocator's state by a few bytes. */
/** shown() and the lanes window, digested: a big run's frames make a
 * failed comparison's report too long to send */
function briefly(f: Parameters<typeof shown>[0] & { lanes?: unknown }): string {
  return `seq ${f.seq} ${createHash('sha256').update(shown(f)).update(JSON.stringify(f.lanes ?? null)).digest('hex')}`;
}

function same(m: RunMeta): Omit<RunMeta, 'checkpointBytes'> {
  const { checkpointBytes, ...rest } = m;
  expect(checkpointBytes).toBeLessThanOrEqual(m.checkpointBudget);
  return rest;
}

function finish(e: Engine): RunMeta {
  while (!e.prepassDone) e.prepassSlice(0);
  return e.meta!;
}

describe('pre-pass in the background', () => {
  test('open returns before the end; slices reach the same meta as the whole pre-pass', () => {
    const full = new Engine(mod);
    const want = full.open(trace(), '', '').meta;
    full.close();
    const e = lazy();
    const first = e.open(trace(), '', '');
    expect(first.meta.prepassDone).toBe(false);
    expect(first.meta.prepassOps).toBeLessThan(want.opsTotal);
    expect(first.meta.seqTotal).toBeLessThan(want.seqTotal);
    expect(first.meta.checkpoints).toBe(2);
    expect(first.frame.seq).toBe(0);
    expect(want.prepassDone).toBe(true);
    expect(want.prepassOps).toBe(want.opsTotal);
    expect(same(finish(e))).toEqual(same(want));
    e.close();
  });

  test('a seek past the frontier lands on the same frame as after the whole pre-pass; the pass goes on from its frontier', () => {
    const full = new Engine(mod);
    const meta = full.open(trace(), '', '').meta;
    const seqs = [Math.floor(meta.seqTotal * 0.8), 7, Math.floor(meta.seqTotal / 2), meta.seqTotal + 5];
    const ops = [Math.floor(meta.opsTotal * 0.9), 3, meta.opsTotal];
    const want = [...seqs.map((s) => shown(full.seek(s))), ...ops.map((o) => shown(full.seekOp(o)))];
    full.close();

    const e = lazy();
    e.open(trace(), '', '');
    const got: string[] = [];
    for (const s of seqs) {
      got.push(shown(e.seek(s)));
      e.prepassSlice(0);
    }
    for (const o of ops) got.push(shown(e.seekOp(o)));
    expect(got).toEqual(want);
    // the pass goes on from its own frontier; then the same seeks again
    expect(e.prepassDone).toBe(false);
    finish(e);
    expect([...seqs.map((x) => shown(e.seek(x))), ...ops.map((o) => shown(e.seekOp(o)))]).toEqual(want);
    e.close();
  });

  test('a seek far past the frontier leaves an anchor: back there after a slice, only the frame window runs again', () => {
    const full = new Engine(mod);
    const meta = full.open(trace(), '', '').meta;
    const target = Math.floor(meta.seqTotal * 0.9);
    const want = [shown(full.seek(target)), full.text('slabinfo'), shown(full.frame())];
    full.close();

    const e = lazy();
    e.open(trace(), '', '');
    const got = [shown(e.seek(target))];
    // the slice takes the session back to the frontier, near op 0 ...
    e.prepassSlice(0);
    expect(e.prepassDone).toBe(false);
    const before = e.replayed;
    // ... and the next request brings it home: from the anchor the seek
    // left (at most LANES_MAX steps before the target), not from op 0's side
    got.push(e.text('slabinfo'), shown(e.frame()));
    expect(e.replayed - before).toBeLessThanOrEqual(LANES_MAX);
    expect(target).toBeGreaterThan(20 * LANES_MAX);
    expect(got).toEqual(want);
    e.close();
  });

  test('a far seek runs whole ops, undoing those that go past the target, and shows what single steps show: serial, round-robin, steps chosen by hand, a run that stops', () => {
    // small runs with one checkpoint (op 0; every seek starts there), and
    // the big lazy one past the pre-pass's frontier
    const small = (rounds: number) => trace().replace(/^repeat \d+ r/m, `repeat ${rounds} r`);
    // the run stops at the double free after the churn (continue_on_error off)
    const stops = `${small(8)}c0 alloc churn-128 twice\nc0 free churn-128 twice\nc0 free churn-128 twice\nc1 alloc churn-128 after\n`;
    const cases: { text: string; sets: string; every: number; hand?: number }[] = [
      { text: trace(), sets: '', every: 0 },
      { text: small(8), sets: 'schedule=round-robin', every: 1e9 },
      { text: small(8), sets: 'schedule=random', every: 1e9, hand: 30 },
      { text: stops, sets: '', every: 1e9 },
    ];
    for (const c of cases) {
      const what = `${c.sets || 'serial'}${c.hand ? ', by hand' : ''}, ${c.text.length} chars`;
      // the truth: one svz_step after another from op 0 (Engine.step)
      const truth = new Engine(mod);
      truth.lanesWindow = LANES_MAX;
      const total = truth.open(c.text, '', c.sets, c.every).meta.seqTotal;
      let handCpu = -1;
      if (c.hand) {
        truth.step(c.hand);
        handCpu = [0, 1, 2, 3].find((cpu) => truth.stepCpu(cpu).refused === null) ?? -1;
        expect(handCpu, what).toBeGreaterThanOrEqual(0);
        truth.seek(0);
      }
      const targets = [Math.floor(total * 0.3), Math.floor(total * 0.75), total, total + 50];
      const want: string[] = [];
      let at = 0;
      for (const t of targets) {
        const f = truth.step(Math.min(t, total) - at);
        at = f.seq;
        want.push(briefly(f));
      }
      truth.close();

      const e = c.every ? new Engine(mod) : lazy();
      e.lanesWindow = LANES_MAX;
      e.open(c.text, '', c.sets, c.every);
      if (c.hand) {
        e.seek(c.hand);
        expect(e.stepCpu(handCpu).refused, what).toBeNull();
        e.seek(0);
      }
      const got: string[] = [];
      for (const t of targets) {
        const f = e.seek(t);
        got.push(briefly(f));
      }
      expect(got, what).toEqual(want);
      expect(e.opRuns.kept, what).toBeGreaterThan(0);
      e.close();
    }
  });

  test('a seek whose runs of whole ops overshoot undoes them and lands on the step', () => {
    // 3000 allocs and frees of one object (~5 steps each), then 10 bulk
    // allocs and frees of 20000 objects (thousands of steps each): the
    // steps per op of the first part make the runs that reach into the
    // second go past a target there (few handles: a small arena, so its
    // checkpoint's copy leaves the runs worth it)
    const text = `slubviz-trace 1
node 0 mem=4G
cpus 0-1 node=0
seed 3
cache mixed-64 size=64
repeat 3000 i {
  c0 alloc mixed-64 a
  c0 free mixed-64 a
}
repeat 10 i {
  c1 alloc_bulk mixed-64 20000 b
  c1 free_bulk mixed-64 20000 b
}
`;
    // one checkpoint (op 0): the seeks run from there
    const truth = new Engine(mod);
    const total = truth.open(text, '', '', 1e9).meta.seqTotal;
    const bulkFrom = truth.seekOp(6000).seq;
    const targets = [Math.floor((bulkFrom + total) / 2), total - 7];
    truth.seek(0);
    const want: string[] = [];
    let at = 0;
    for (const t of targets) {
      const f = truth.step(t - at);
      at = f.seq;
      want.push(briefly(f));
    }
    truth.close();
    const e = new Engine(mod);
    e.open(text, '', '', 1e9);
    const got = targets.map((t) => {
      e.seek(0);
      return briefly(e.seek(t));
    });
    expect(got).toEqual(want);
    expect(e.opRuns.undone).toBeGreaterThan(0);
    e.close();
  });

  test('slices between steps: each request finds the session where the person left it', () => {
    const full = new Engine(mod);
    full.open(trace(), '', '');
    const want = [shown(full.seek(40)), shown(full.step(3)), shown(full.stepOp(2)), full.text('slabinfo'), shown(full.frame())];
    full.close();

    const e = lazy();
    e.open(trace(), '', '');
    const got: string[] = [];
    got.push(shown(e.seek(40)));
    e.prepassSlice(0);
    got.push(shown(e.step(3)));
    e.prepassSlice(0);
    e.prepassSlice(0);
    got.push(shown(e.stepOp(2)));
    e.prepassSlice(0);
    got.push(e.text('slabinfo'));
    e.prepassSlice(0);
    got.push(shown(e.frame()));
    expect(got).toEqual(want);
    e.close();
  });

  test('a step chosen by hand before the pass is done: the same run, meta and frame', () => {
    const full = new Engine(mod);
    full.open(trace(), '', '');
    full.seek(25);
    const a = full.stepCpu(1);
    full.close();

    const e = lazy();
    e.open(trace(), '', '');
    e.seek(25);
    e.prepassSlice(0);
    const b = e.stepCpu(1);
    expect(b.refused).toBe(a.refused);
    expect(same(b.meta)).toEqual(same(a.meta));
    expect(shown(b.frame)).toBe(shown(a.frame));
    e.close();
  });

  test('the memory budget: the background pass degrades to fewer checkpoints, never over the budget; seeks still land right', () => {
    const full = new Engine(mod);
    const a = full.open(trace(), '', '', 1).meta;
    const ops = [a.opsTotal, Math.floor(a.opsTotal / 2), 2, a.opsTotal - 3];
    const want = ops.map((op) => shown(full.seekOp(op)));
    full.close();

    const per = a.checkpointBytes / a.checkpoints;
    const e = lazy(Math.floor(per * 4.5));
    e.open(trace(), '', '', 1);
    const b = finish(e);
    expect(b.checkpointBytes).toBeLessThanOrEqual(b.checkpointBudget);
    expect(b.checkpoints).toBeLessThan(a.checkpoints);
    expect(b.checkpoints).toBeGreaterThanOrEqual(2);
    expect(b.checkpointEvery).toBeGreaterThan(a.checkpointEvery);
    expect(b.seqTotal).toBe(a.seqTotal);
    expect(b.samples).toEqual(a.samples);
    expect(ops.map((op) => shown(e.seekOp(op)))).toEqual(want);
    e.close();
  });

  test("the worker's 'prepass' request runs the rest between requests and answers the final meta", async () => {
    const full = new Engine(mod);
    const want = full.open(trace(), '', '').meta;
    full.close();
    const b = new Backend(mod, new MemoryStorage());
    const r = await b.handle({ type: 'open', trace: trace(), preset: '', sets: '', foregroundMs: 0 });
    expect(r.meta.prepassDone).toBe(false);
    const progress: number[] = [];
    const bg = b.handle({ type: 'prepass' }, (done) => progress.push(done));
    // a request meanwhile is answered from where the person is
    const f = await b.handle({ type: 'step', count: 5 });
    expect(f.seq).toBe(5);
    const final = await bg;
    expect(final && same(final)).toEqual(same(want));
    expect(progress.length).toBeGreaterThan(0);
    expect((await b.handle({ type: 'frame' })).seq).toBe(5);
    // another open ends an older background pass (null)
    await b.handle({ type: 'open', trace: trace(), preset: '', sets: '', foregroundMs: 0 });
    const old = b.handle({ type: 'prepass' });
    await b.handle({ type: 'open', trace: trace(), preset: '', sets: '' });
    expect(await old).toBeNull();
  });
});

describe('replaying an import adopts its session', () => {
  test('the same run as parsing its v1 text again', async () => {
    const b = new Backend(mod, new MemoryStorage());
    const r = (await b.handle({ type: 'import', source: synthFtraceBlob(3000), name: 'synth.txt', format: '', store: false })) as ImportOk;
    expect(r.ok).toBe(true);
    const text = await b.handle({ type: 'getText', ref: r.ref, maxBytes: 1 << 30 });
    expect(text).not.toBeNull();
    const adopted = await b.handle({ type: 'open', trace: '', ref: r.ref, preset: '', sets: '' });
    const late = [shown(await b.handle({ type: 'seekOp', op: Math.floor(r.meta.ops / 2) })), shown(await b.handle({ type: 'seek', seq: 9 }))];

    const e = new Engine(mod);
    const parsed = e.open(text!, '', '');
    expect(same(adopted.meta)).toEqual(same(parsed.meta));
    expect(shown(adopted.frame)).toBe(shown(parsed.frame));
    expect(late).toEqual([shown(e.seekOp(Math.floor(r.meta.ops / 2))), shown(e.seek(9))]);
    e.close();
    // opened again (another config, or twice): parsed from the text
    const again = await b.handle({ type: 'open', trace: '', ref: r.ref, preset: '', sets: '' });
    expect(same(again.meta)).toEqual(same(parsed.meta));
  });
});
