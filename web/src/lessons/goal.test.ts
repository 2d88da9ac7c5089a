// The sandbox goal picture's summary (goal.ts) on a fixture snapshot:
// scenarios/sheaf-cycle.trace at op 700 (web/src/viz/fixtures). Expected
// values read off the fixture's records: pair-64 (sheaf capacity 60), CPU 0
// main = sheaf 5 (60 objects), spare = sheaf 0 (60); CPU 1 main = sheaf 4
// (20), spare = sheaf 3 (0); node 0: 1 partial slab, no full slab, barn with
// 0 full and 2 empty sheaves; slabs 0-3 with 64 + 64 + 64 + 48 objects in use.
import { describe, expect, test } from 'vitest';
import type { Snapshot } from '../engine/types';
import fixture from '../viz/fixtures/sheaf-cycle-op700.json';
import { pictureDiff, statePicture } from './goal';

const snap = (fixture as unknown as { snap: Snapshot }).snap;

describe('statePicture', () => {
  test('the sheaves, lists and barn of a cache', () => {
    const p = statePicture(snap, 'pair-64')!;
    expect(p.cpus.map((c) => [c.cpu, c.main, c.spare, c.capacity])).toEqual([[0, 60, 60, 60], [1, 20, 0, 60]]);
    expect(p.nodes).toEqual([{ node: 0, partial: 1, full: 0, barn: { full: 0, empty: 2 } }]);
    expect([p.inuse, p.slabs]).toEqual([240, 4]);
  });

  test('only the allowed CPUs; no picture of a cache that is not there', () => {
    expect(statePicture(snap, 'pair-64', [1])!.cpus.map((c) => c.cpu)).toEqual([1]);
    expect(statePicture(snap, 'nope')).toBeNull();
  });
});

describe('pictureDiff', () => {
  test('names what differs from the goal, nothing when it matches', () => {
    const now = statePicture(snap, 'pair-64')!;
    expect(pictureDiff(now, now)).toEqual([]);
    const goal = structuredClone(now);
    goal.cpus[1].main = 59;
    goal.nodes[0].barn = { full: 1, empty: 1 };
    expect(pictureDiff(now, goal)).toEqual(["CPU 1's main: 20, goal 59", "node 0's barn: 0 full / 2 empty, goal 1 / 1"]);
  });
});
