import { beforeAll, describe, expect, test } from 'vitest';
import { classify, Engine, matchEvent } from './engine';
import type { SlubvizModule } from './session';
import { loadModule, scenario } from './testing';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

describe('Engine (checkpoints and seeks)', () => {
  test('open runs a pre-pass: totals, checkpoints, markers, samples', () => {
    const e = new Engine(mod);
    const { meta, frame } = e.open(scenario('basics'), '', '');
    expect(frame.seq).toBe(0);
    expect(frame.event).toBeNull();
    expect(meta.opsTotal).toBe(frame.opsTotal);
    expect(meta.seqTotal).toBeGreaterThan(meta.opsTotal);
    expect(meta.checkpoints).toBeGreaterThan(1);
    expect(meta.markers.length).toBe(meta.opsTotal);
    expect(meta.markers.map((m) => m.cls)).toContain('new_slab');
    expect(meta.markers.map((m) => m.cls)).toContain('discard');
    expect(meta.samples.alloc_fastpath.length).toBe(meta.sampleOps.length);
    e.close();
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

  test('runUntil stops right after the matching step, or at the end', () => {
    const e = new Engine(mod);
    e.open(scenario('basics'), '', '');
    let f = e.runUntil({ kind: 'new_slab' });
    expect(f.hit).toBe(true);
    expect(f.event?.kind).toBe('new_slab');
    f = e.runUntil({ kind: 'discard' });
    expect(f.event?.kind).toBe('discard_slab');
    f = e.runUntil({ kind: 'discard' });
    expect(f.hit).toBe(false);
    expect(f.opsDone).toBe(f.opsTotal);
    // object X: the object the first fast-path alloc hands out
    e.seek(0);
    f = e.runUntil({ kind: 'alloc_slowpath' });
    e.seek(0);
    const first = e.runUntil({ kind: 'object', obj: 0 });
    expect(first.hit).toBe(true);
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

describe('classify / matchEvent', () => {
  test('most notable path wins', () => {
    expect(classify({}, { alloc_fastpath: 1 })).toBe('fast');
    expect(classify({}, { alloc_fastpath: 1, barn_get: 1 })).toBe('barn');
    expect(classify({}, { sheaf_refill: 60, alloc_slab: 1 })).toBe('new_slab');
    expect(classify({ free_slab: 1 }, { free_slab: 2, alloc_slab: 1 })).toBe('discard');
    expect(classify({ a: 1 }, { a: 1 })).toBe('idle');
  });
  test('breakpoint conditions', () => {
    const ev = { seq: 1, op: 0, cpu: 0, fn: 'x', kind: 'stat', stat: 'alloc_slowpath', count: 1, value: 1, text: '' };
    expect(matchEvent({ kind: 'alloc_slowpath' }, ev, null)).toBe(true);
    expect(matchEvent({ kind: 'new_slab' }, ev, null)).toBe(false);
    expect(matchEvent({ kind: 'object', obj: 5 }, { ...ev, kind: 'take_object', obj: 5 }, null)).toBe(true);
    expect(matchEvent({ kind: 'object', obj: 5 }, { ...ev, kind: 'take_object', slab: 0, obj: 9, count: 60 }, 0)).toBe(true);
    expect(matchEvent({ kind: 'object', obj: 5 }, { ...ev, kind: 'take_object', slab: 1, obj: 9, count: 60 }, 0)).toBe(false);
  });
});
