// The sandbox goal picture's summary (goal.ts) on a fixture snapshot:
// scenarios/sheaf-cycle.trace at op 700 (web/src/viz/fixtures). Expected
// values read off the fixture's records: pair-64 (sheaf capacity 60), CPU 0
// main = sheaf 5 (60 objects), spare = sheaf 0 (60); CPU 1 main = sheaf 4
// (20), spare = sheaf 3 (0); node 0: 1 partial slab, no full slab, barn with
// 0 full and 2 empty sheaves; slabs 0-3 with 64 + 64 + 64 + 48 objects in use.
import { describe, expect, test } from 'vitest';
import type { Snapshot } from '../engine/types';
import fixture from '../viz/fixtures/sheaf-cycle-op700.json';
import classicFixture from '../viz/fixtures/classic-churn-op396.json';
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

describe('pictureDiff in the classic era', () => {
  // classic-churn at op 396 (v6.19): kmem_cache_cpu slabs, no sheaves
  const classic = (classicFixture as unknown as { snap: Snapshot }).snap;
  test('a classic cache: the cpu slab; with sheaves (v6.18+ sheaf_capacity) main and spare as well', () => {
    const cache = classic.caches.find((c) => c.alive && (c.cpus ?? []).some((p) => p.slab !== null))!;
    const now = statePicture(classic, cache.name)!;
    expect(now.era).toBe('classic');
    expect(now.sheaves).toBe(false);
    const goal = structuredClone(now);
    goal.cpus[0].main = 5; // a sheaf difference on a cache without sheaves is not shown
    goal.cpus[0].cpuPartial = now.cpus[0].cpuPartial + 1;
    expect(pictureDiff(now, goal)).toEqual([`CPU ${now.cpus[0].cpu}'s partial slabs: ${now.cpus[0].cpuPartial}, goal ${goal.cpus[0].cpuPartial}`]);
    goal.sheaves = true; // the same cache created with sheaf_capacity: both are compared
    expect(pictureDiff(now, goal)).toEqual([
      `CPU ${now.cpus[0].cpu}'s main: none, goal 5`,
      `CPU ${now.cpus[0].cpu}'s partial slabs: ${now.cpus[0].cpuPartial}, goal ${goal.cpus[0].cpuPartial}`,
    ]);
  });
});
