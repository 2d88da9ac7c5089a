import { beforeAll, describe, expect, test } from 'vitest';
import { CHECKPOINT_BUDGET, Engine, matchEvent } from './engine';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { loadModule, scenario } from './testing';
import { SlubvizSession } from '../../../core/wasm/slubviz-api';
import type { Snapshot } from './types';
import type { OpenResult } from './protocol';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

describe('Engine (checkpoints and seeks)', () => {
  test('open runs a pre-pass: totals, checkpoints, samples', () => {
    const e = new Engine(mod);
    const { meta, frame } = e.open(scenario('basics'), '', '');
    expect(frame.seq).toBe(0);
    expect(frame.event).toBeNull();
    expect(meta.opsTotal).toBe(frame.opsTotal);
    expect(meta.seqTotal).toBeGreaterThan(meta.opsTotal);
    expect(meta.checkpoints).toBeGreaterThan(1);
    // one sample per bucket end, the last at the end of the run; basics
    // makes new slabs and discards some
    expect(meta.sampleOps[meta.sampleOps.length - 1]).toBe(meta.opsTotal);
    expect(meta.samples.alloc_fastpath.length).toBe(meta.sampleOps.length);
    expect(meta.samples.slabs_allocated.at(-1)).toBeGreaterThan(0);
    expect(meta.samples.slabs_freed.at(-1)).toBeGreaterThan(0);
    e.close();
  });

  test('the pre-pass samples (svz_stat_totals_json) are the snapshot summed over caches and CPUs', () => {
    // the sum the timeline sampled from whole snapshots before issue 14:
    // slabs_allocated/freed over every cache, each stat over the live
    // caches' CPUs (a destroyed cache keeps its slab counts, not its stats)
    const fromSnapshot = (snap: Snapshot): Record<string, number> => {
      const t: Record<string, number> = {};
      for (const c of snap.caches) {
        t.slabs_allocated = (t.slabs_allocated ?? 0) + c.slabs_allocated;
        t.slabs_freed = (t.slabs_freed ?? 0) + c.slabs_freed;
        if (!c.stats) continue;
        for (const [k, v] of Object.entries(c.stats)) t[k] = (t[k] ?? 0) + v.reduce((a, b) => a + b, 0);
      }
      return t;
    };
    const trace = `slubviz-trace 1
node 0 mem=64M
cpus 0-1 node=0
cache a size=64
cache b size=256
c0 alloc a x
c1 alloc b y
c1 free b y
c0 destroy b
c1 free a x
`;
    const s = SlubvizSession.open(mod, trace, { preset: '', sets: null });
    const seen: string[] = [];
    for (let op = 0; op <= 5; op++) {
      s.runToOp(op);
      const totals = s.statTotals();
      expect(JSON.stringify(totals)).toBe(JSON.stringify(fromSnapshot(s.snapshot() as Snapshot)));
      seen.push(Object.keys(totals).join(','));
    }
    // the destroyed cache b keeps its slab counts in the totals: the first
    // alloc fills a's sheaf (capacity 60) from one order-0 slab of 4096/64 =
    // 64 objects, b's (capacity 28) from two slabs of 4096/256 = 16
    expect(s.statTotals().slabs_allocated).toBe(3);
    expect(seen[0]).toMatch(/^slabs_allocated,slabs_freed,alloc_fastpath/);
    s.close();
  });

  test('seek to any step gives the same snapshot and event as stepping there', () => {
    const e = new Engine(mod);
    const { meta } = e.open(scenario('sheaf-cycle'), '', '');
    const byStep = new Map<number, string>();
    const targets = [1, 17, 400, 1234, meta.seqTotal - 1, meta.seqTotal];
    let f = e.frame();
    for (let seq = 1; seq <= meta.seqTotal; seq++) {
      f = e.step(1);
      if (targets.includes(seq)) byStep.set(seq, JSON.stringify([f.snapshot, f.event]));
    }
    for (const t of [...targets].reverse()) {
      const g = e.seek(t);
      expect(g.seq).toBe(t);
      expect(JSON.stringify([g.snapshot, g.event])).toBe(byStep.get(t));
    }
    e.close();
  });

  test('a backward seek replays at most one checkpoint interval, never from zero', () => {
    const e = new Engine(mod);
    const { meta } = e.open(scenario('partial-churn'), '', '');
    expect(meta.checkpointEvery).toBeLessThan(meta.opsTotal);
    e.seekOp(meta.opsTotal);
    const before = e.replayed;
    const f = e.seekOp(meta.opsTotal - 5);
    expect(f.opsDone).toBe(meta.opsTotal - 5);
    expect(f.inflight).toBe(0);
    const perOp = meta.seqTotal / meta.opsTotal;
    expect(e.replayed - before).toBeLessThan(perOp * meta.checkpointEvery * 3);
    expect(e.replayed - before).toBeLessThan(meta.seqTotal / 4);
    e.close();
  });

  test('stepOp finishes the op in flight; seekOp goes to op starts', () => {
    const e = new Engine(mod);
    e.open(scenario('basics'), '', '');
    e.step(3);
    let f = e.stepOp(1);
    expect(f.opsDone).toBe(1);
    expect(f.inflight).toBe(0);
    expect(f.event?.kind).toBe('return');
    f = e.seekOp(4);
    expect(f.opsDone).toBe(4);
    f = e.seekOp(0);
    expect(f.seq).toBe(0);
    e.close();
  });

  test('runUntil stops right after the matching step; found nothing, it leaves the position alone', () => {
    const e = new Engine(mod);
    e.open(scenario('basics'), '', '');
    let f = e.runUntil({ kind: 'new_slab' });
    expect(f.hit).toBe(true);
    expect(f.event?.kind).toBe('new_slab');
    f = e.runUntil({ kind: 'discard' });
    expect(f.event?.kind).toBe('discard_slab');
    const at = f.seq;
    f = e.runUntil({ kind: 'discard' });
    expect(f.hit).toBe(false);
    expect(f.seq).toBe(at);
    expect(e.frame().seq).toBe(at);
    // object X: the object the first fast-path alloc hands out
    e.seek(0);
    f = e.runUntil({ kind: 'alloc_slowpath' });
    e.seek(0);
    const first = e.runUntil({ kind: 'object', obj: 0 });
    expect(first.hit).toBe(true);
    e.close();
  });

  test('the per-era breakpoints: barn_get_fail, sheaf refill, no barn, a contended list_lock, an object freed', () => {
    const e = new Engine(mod);
    // sheaf-cycle (v7.0 sheaves era, one node with memory): CPU 1's first
    // allocation finds its main empty and the barn without a full sheaf
    // (barn_get_fail), then refills a sheaf (sheaf_refill); the only node
    // has memory, so there is a barn (NO_BARN never happens); one CPU at a
    // time runs its op (serial schedule), so no lock is ever contended.
    e.open(scenario('sheaf-cycle'), '', '');
    let f = e.runUntil({ kind: 'barn_get_fail' });
    expect([f.hit, f.event?.kind, f.event?.stat]).toEqual([true, 'stat', 'barn_get_fail']);
    f = e.runUntil({ kind: 'sheaf_refill' });
    expect([f.hit, f.event?.kind, f.event?.stat]).toEqual([true, 'stat', 'sheaf_refill']);
    const at = f.seq;
    for (const kind of ['no_barn', 'list_lock_contended'] as const) {
      f = e.runUntil({ kind });
      expect([kind, f.hit, f.seq]).toEqual([kind, false, at]);
    }
    // the object CPU 1's first allocation hands out is freed later by its user
    f = e.seekOp(1);
    const handed = f.snapshot.slabs.flatMap((s) => [...s.state].map((c, i) => (c === 'u' ? s.obj0 + i : -1))).filter((x) => x >= 0);
    expect(handed.length).toBe(1);
    f = e.runUntil({ kind: 'object_freed', obj: handed[0] });
    expect([f.hit, f.event?.obj, f.event?.from]).toEqual([true, handed[0], 'user']);
    e.close();
  });

  test('"object freed" stops at every free of the object, a bulk free too, in both eras; an allocation is not a free', () => {
    const e = new Engine(mod);
    const trace = (ops: string) => `slubviz-trace 1\npage_size 4096\ncache bench-256 size=256\n${ops}`;
    const held = (f: { snapshot: Snapshot }) => f.snapshot.slabs.flatMap((s) => [...s.state].map((c, i) => (c === 'u' ? s.obj0 + i : -1))).filter((x) => x >= 0);
    for (const preset of ['v7.0+fix1+fix2', 'v6.19']) {
      // kmem_cache_free_bulk(): one event moves the 4 objects and names at most one
      e.open(trace('c0 alloc_bulk bench-256 4 blk\nc1 alloc bench-256 x\nc0 free_bulk bench-256 4 blk\nc1 free bench-256 x\n'), preset, '');
      let f = e.seekOp(1);
      const mine = held(f);
      expect([preset, mine.length]).toEqual([preset, 4]);
      for (const obj of mine) {
        e.seekOp(1);
        f = e.runUntil({ kind: 'object_freed', obj });
        expect([preset, obj, f.hit, f.event?.op]).toEqual([preset, obj, true, 2]);
        expect(held(f)).not.toContain(obj);
      }
      // the single free of op 3 frees x, not the bulk objects
      f = e.seekOp(2);
      const x = held(f).find((o) => !mine.includes(o))!;
      f = e.runUntil({ kind: 'object_freed', obj: x });
      expect([preset, f.hit, f.event?.op]).toEqual([preset, true, 3]);
    }
    // an object allocated again after its free: the free is the stop, not the allocation
    e.open(trace('c0 alloc bench-256 a\nc0 free bench-256 a\nc0 alloc bench-256 b\n'), 'v7.0+fix1+fix2', '');
    let f = e.seekOp(1);
    const [a] = held(f);
    e.seekOp(0);
    f = e.runUntil({ kind: 'object_freed', obj: a });
    expect([f.hit, f.event?.op]).toEqual([true, 1]);
    f = e.runUntil({ kind: 'object_freed', obj: a });
    expect(f.hit).toBe(false);
    e.close();
  });

  test('a config (preset, sets) reaches svz_open', () => {
    const e = new Engine(mod);
    const { frame } = e.open(scenario('basics'), 'v7.0-rc1', 'seed=3\nfix1=1');
    expect(frame.snapshot.config.preset).toBe('v7.0-rc1');
    expect(frame.snapshot.config.switches.seed).toBe('3');
    expect(frame.snapshot.config.switches.fix1).toBe(true);
    expect(() => e.open('nonsense', '', '')).toThrow(/header/);
    e.close();
  });
});

describe('Engine: the same trace again under another config', () => {
  /** What a run shows: the meta but its measured bytes, frames at a few
   * seeks, the stats and slabinfo at the end. */
  const shows = (e: Engine, r: OpenResult) => {
    const { checkpointBytes: _bytes, ...meta } = r.meta;
    const n = r.meta.opsTotal;
    const frames = [Math.floor(n / 3), n, 1].map((op) => JSON.stringify(e.seekOp(op)));
    return JSON.stringify([meta, frames, e.text('stats'), e.text('slabinfo'), e.text('reports')]);
  };

  test('reopening the parsed trace (svz_reopen) gives what opening the text gives; not parsed again', () => {
    // ublk-bio256 ("repeat" loops: 206,336 ops) names preset v7.0-rc1
    // itself; '' must come back to that, not stay on the last one
    const text = scenario('ublk-bio256');
    const configs: [string, string][] = [['v6.19', ''], ['', ''], ['v7.0-rc2+fix1', 'seed=7'], ['', '']];
    const want = configs.map(([preset, sets]) => {
      const fresh = new Engine(mod);
      const got = shows(fresh, fresh.open(text, preset, sets));
      fresh.close();
      return got;
    });
    let opens = 0;
    const counted = new Proxy(mod, {
      get: (t, k, r) => (k === '_svz_open' ? (...a: number[]) => (opens++, t._svz_open(a[0], a[1], a[2])) : Reflect.get(t, k, r)),
    }) as SlubvizModule;
    const e = new Engine(counted);
    const got = configs.map(([preset, sets]) => shows(e, e.open(text, preset, sets)));
    expect(got).toEqual(want);
    // parsed once: the first open; the others reopened it
    expect(opens).toBe(1);
    // a preset that does not exist fails as an open does, and leaves no run
    expect(() => e.open(text, 'v0.1-nope', '')).toThrow(/unknown preset 'v0.1-nope'/);
    expect(() => e.frame()).toThrow();
    e.close();
  });
});

/** `mod` with room for at most `slots` live checkpoints: svz_checkpoint
 * fails (-1, as when wasm malloc fails) beyond that until one is dropped. */
function tightMemory(m: SlubvizModule, slots: number): SlubvizModule & { calls: number } {
  const live = new Set<string>();
  let calls = 0;
  return new Proxy(m, {
    get(target, k, recv) {
      if (k === 'calls') return calls;
      if (k === '_svz_checkpoint')
        return (h: number) => {
          calls++;
          if (live.size >= slots) return -1;
          const id = target._svz_checkpoint(h);
          live.add(`${h}:${id}`);
          return id;
        };
      if (k === '_svz_checkpoint_drop')
        return (h: number, id: number) => {
          live.delete(`${h}:${id}`);
          target._svz_checkpoint_drop(h, id);
        };
      return Reflect.get(target, k, recv) as unknown;
    },
  }) as SlubvizModule & { calls: number };
}

/** Frames at a few positions, by seeks in a scrambled order. */
function seekAll(e: Engine, ops: number[]): string[] {
  return ops.map((op) => {
    const f = e.seekOp(op);
    return JSON.stringify([f.opsDone, f.seq, f.snapshot]);
  });
}

describe('Engine: checkpoints within a memory budget', () => {
  const trace = () => scenario('partial-churn');

  test('the default budget; sizes are measured on the wasm heap', () => {
    const e = new Engine(mod);
    const { meta } = e.open(trace(), '', '', 1);
    expect(meta.checkpointBudget).toBe(CHECKPOINT_BUDGET);
    expect(meta.checkpoints).toBeGreaterThan(10);
    expect(meta.checkpointBytes).toBeGreaterThan(meta.checkpoints * 1024);
    expect(meta.checkpointBytes).toBeLessThanOrEqual(CHECKPOINT_BUDGET);
    expect(meta.checkpointFailures).toBe(0);
    e.close();
  });

  test('a small budget thins them (interval doubles); seeks give the same frames', () => {
    const full = new Engine(mod);
    const a = full.open(trace(), '', '', 1).meta;
    const per = a.checkpointBytes / a.checkpoints;
    const total = a.opsTotal;
    const ops = [total, 3, Math.floor(total / 2), total - 1, 1, Math.floor(total / 3), 0, total - 7];
    const want = seekAll(full, ops);
    full.close();

    const e = new Engine(mod, { budget: Math.floor(per * 4.5) });
    const b = e.open(trace(), '', '', 1).meta;
    expect(b.checkpointBudget).toBe(Math.floor(per * 4.5));
    expect(b.checkpointBytes).toBeLessThanOrEqual(b.checkpointBudget);
    expect(b.checkpoints).toBeLessThanOrEqual(4);
    expect(b.checkpoints).toBeGreaterThanOrEqual(2);
    expect(b.checkpointEvery).toBeGreaterThanOrEqual(a.checkpointEvery * 4);
    expect(seekAll(e, ops)).toEqual(want);
    e.close();
  });

  test('svz_checkpoint failing (out of wasm memory) degrades to fewer checkpoints; seeks still work', () => {
    const full = new Engine(mod);
    const a = full.open(trace(), '', '', 1).meta;
    const total = a.opsTotal;
    const ops = [total, Math.floor(total / 2), 2, total - 3, Math.floor((3 * total) / 4), 0];
    const want = seekAll(full, ops);
    full.close();

    const tight = tightMemory(mod, 5);
    const e = new Engine(tight);
    const b = e.open(trace(), '', '', 1).meta;
    expect(b.checkpointFailures).toBeGreaterThan(0);
    expect(b.checkpoints).toBeLessThanOrEqual(5);
    expect(b.checkpoints).toBeGreaterThanOrEqual(2);
    expect(b.checkpointEvery).toBeGreaterThan(a.checkpointEvery);
    expect(seekAll(e, ops)).toEqual(want);
    e.close();
  });

  test('no room even for the first checkpoint: a clear error, not a failed restore', () => {
    const e = new Engine(tightMemory(mod, 0));
    expect(() => e.open(trace(), '', '', 1)).toThrow(/out of memory: no room for the first checkpoint/);
    e.close();
  });
});

describe('matchEvent', () => {
  test('breakpoint conditions', () => {
    const ev = { seq: 1, op: 0, cpu: 0, fn: 'x', kind: 'stat', stat: 'alloc_slowpath', count: 1, value: 1, text: '' };
    expect(matchEvent({ kind: 'alloc_slowpath' }, ev, null)).toBe(true);
    expect(matchEvent({ kind: 'new_slab' }, ev, null)).toBe(false);
    expect(matchEvent({ kind: 'object', obj: 5 }, { ...ev, kind: 'take_object', obj: 5 }, null)).toBe(true);
    expect(matchEvent({ kind: 'object', obj: 5 }, { ...ev, kind: 'take_object', slab: 0, obj: 9, count: 60 }, 0)).toBe(true);
    expect(matchEvent({ kind: 'object', obj: 5 }, { ...ev, kind: 'take_object', slab: 1, obj: 9, count: 60 }, 0)).toBe(false);
  });
});
