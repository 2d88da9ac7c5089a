// Snapshots whose owners only cross when they changed (svz_snapshot_lean_json,
// SlubvizSession.snapshotShared, Engine.snapshot, wire.ts): after any steps,
// seeks back, preset switches and resets, what the page gets is the full
// export of that moment.
import { beforeAll, describe, expect, test } from 'vitest';
import { SlubvizSession, type SlubvizModule } from '../../../core/wasm/slubviz-api';
import { Engine } from './engine';
import type { Frame } from './protocol';
import { loadModule, scenario } from './testing';
import type { Snapshot } from './types';
import { ownersKey, packFrames, slabKey, unpackFrames } from './wire';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

/** The full export of the session's state. */
const full = (s: SlubvizSession): Snapshot => s.snapshot() as Snapshot;
const shared = (s: SlubvizSession): Snapshot => s.snapshotShared() as Snapshot;
/** What crossing to the page makes of a frame. */
const cross = (f: Frame): Frame => unpackFrames(structuredClone(packFrames(f))) as Frame;

/** Slabs filled by one set of handles, emptied and filled again by
 * another. */
const REUSE = `slubviz-trace 1
page_size 4096
node 0 mem=64M
cpus 0-1 node=0
cache dentry size=192
repeat 400 {
  c0 alloc dentry a{$i} at=d_alloc+0x2c
}
repeat 400 {
  c1 free dentry a{$i}
}
repeat 400 {
  c1 alloc dentry b{$i} at=__d_alloc+0x10
}
repeat 200 {
  c0 free dentry b{$i}
}
`;

/** The same run's steps: 0, then a pseudo-random walk forward and back
 * (fixed seed). */
function walk(total: number, n: number): number[] {
  let x = 12345;
  const seqs = [0];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    seqs.push(x % (total + 1));
  }
  return seqs;
}

describe('snapshotShared: the full snapshot, sent in part', () => {
  // every `stride` steps (a long run's every step would take minutes)
  test.each([
    ['slabs filled, emptied and filled again', REUSE, '', 3],
    ['slabs discarded (partial-churn)', scenario('partial-churn'), '', 211],
    ['the classic era', REUSE, 'v6.19', 5],
  ])('all along a run: %s', (_, trace, preset, stride) => {
    const s = SlubvizSession.open(mod, trace, { preset });
    try {
      let n = 0;
      do if (n++ % stride === 0) expect(JSON.stringify(shared(s))).toBe(JSON.stringify(full(s)));
      while (s.step() === 1);
      expect(JSON.stringify(shared(s))).toBe(JSON.stringify(full(s)));
    } finally {
      s.close();
    }
  });

  test('seeks back and forth through checkpoints, two sessions taking turns', () => {
    const sessions = [SlubvizSession.open(mod, REUSE, {}), SlubvizSession.open(mod, scenario('partial-churn'), { preset: 'v6.19' })];
    try {
      const starts = sessions.map((s) => s.checkpoint());
      const totals = sessions.map((s) => (s.runAll(), s.seq()));
      for (const seq of walk(Math.min(...totals), 30))
        sessions.forEach((s, i) => {
          expect(s.restore(starts[i])).toBe(0);
          for (let k = 0; k < seq && s.step() === 1; k++);
          const want = full(s);
          const got = shared(s);
          expect(got).toEqual(want);
          expect(JSON.stringify(got)).toBe(JSON.stringify(want));
        });
    } finally {
      sessions.forEach((s) => s.close());
    }
  });

  test('a reply the page never read (the owners it sent are not kept) is made whole from the full export', () => {
    const s = SlubvizSession.open(mod, REUSE, {});
    try {
      s.runToOp(100);
      shared(s);
      s.runToOp(130);
      // the export remembers it sent these owners; this session never saw them
      mod._svz_snapshot_lean_json(s.h);
      expect(JSON.stringify(shared(s))).toBe(JSON.stringify(full(s)));
      s.runToOp(200);
      expect(JSON.stringify(shared(s))).toBe(JSON.stringify(full(s)));
    } finally {
      s.close();
    }
  });

  test('an unchanged slab shares its owners array with the snapshot before', () => {
    const s = SlubvizSession.open(mod, REUSE, {});
    try {
      s.runToOp(100);
      const before = shared(s);
      s.step();
      const after = shared(s);
      const changed = after.slabs.filter((sl) => JSON.stringify(sl.owners) !== JSON.stringify(before.slabs.find((x) => x.id === sl.id)?.owners));
      expect(after.slabs.length).toBeGreaterThan(1);
      for (const sl of after.slabs) {
        const old = before.slabs.find((x) => x.id === sl.id)!;
        expect(sl.owners === old.owners).toBe(!changed.includes(sl));
      }
    } finally {
      s.close();
    }
  });
});

describe('Engine frames across the worker with shared owners', () => {
  test('steps, seeks back, a preset switch and a reset: each frame on the page is the full snapshot', () => {
    const e = new Engine(mod);
    const check = (f: Frame) => {
      const got = cross(f);
      const want = full(e.session);
      expect(JSON.stringify(got.snapshot)).toBe(JSON.stringify(want));
      expect(got.snapshot).toEqual(want);
    };
    for (const [trace, preset] of [
      [REUSE, ''],
      [REUSE, 'v6.19'], // a preset switch opens the run again
      [scenario('basics'), ''],
    ]) {
      const { frame } = e.open(trace, preset, '');
      check(frame);
      const total = e.meta!.seqTotal;
      for (const seq of walk(total, 12)) check(e.seek(seq));
      for (let i = 0; i < 20; i++) check(e.step(7));
      check(e.seekOp(0));
    }
    e.close();
  });

  test('slabKey: the same key for two slabs drawn alike, owners never built for it', () => {
    const e = new Engine(mod);
    const { frame } = e.open(REUSE, '', '');
    let prev = cross(frame).snapshot;
    let same = 0;
    for (let i = 0; i < 60; i++) {
      const now = cross(e.step(9)).snapshot;
      for (const slab of now.slabs) {
        const old = prev.slabs.find((x) => x.id === slab.id);
        const key = slabKey(slab);
        // compared by token: the owners are still packed
        expect(typeof ownersKey(slab)).toBe('number');
        if (old && key === slabKey(old)) {
          same++;
          expect(JSON.stringify(slab)).toBe(JSON.stringify(old));
        }
        // a slab whose owners changed has another key
        if (old && JSON.stringify(slab.owners) !== JSON.stringify(old.owners)) expect(key).not.toBe(slabKey(old));
      }
      prev = now;
    }
    // most steps leave most slabs alone
    expect(same).toBeGreaterThan(60);
    e.close();
  });
});
