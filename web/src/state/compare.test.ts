// A/B compare: the diff rows as `slubviz diff` computes them (cmd_diff.c),
// on hand-made caches, and side B following side A on one engine each.
import { beforeAll, describe, expect, test } from 'vitest';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { Engine } from '../engine/engine';
import type { SnapCache } from '../engine/types';
import { LocalEngine, loadModule, scenario } from '../engine/testing';
import { cacheByName, CompareSync, diffCounters, relChange, topCpuDiffs } from './compare';
import { Store } from './store';
import { scenarioEnv } from './testing';

const cache = (stats: Record<string, number[]>, listLock: number[] = []) =>
  ({ name: 'c', alive: true, stats, nodes: listLock.map((n, node) => ({ node, counters: { list_lock: n } })) }) as unknown as SnapCache;

describe('diff rows (cmd_diff.c)', () => {
  const a = cache({ alloc_fastpath: [90, 10], alloc_slowpath: [10, 0], free_fastpath: [5, 5] }, [3, 1]);
  const b = cache({ alloc_fastpath: [20, 5], alloc_slowpath: [80, 5], free_fastpath: [5, 5], barn_get: [0, 7] }, [40, 0]);

  test('counters summed over CPUs, only the ones that differ, A order then B', () => {
    expect(diffCounters(a, b)).toEqual([
      { stat: 'alloc_fastpath', a: 100, b: 25 },
      { stat: 'alloc_slowpath', a: 10, b: 85 },
      { stat: 'barn_get', a: 0, b: 7 },
    ]);
  });

  test('per-CPU: largest |b - a| first, ties by CPU', () => {
    // cpu0 fastpath -70, cpu0 slowpath +70, cpu1 barn_get +7, cpu1 fastpath -5, cpu1 slowpath +5
    expect(topCpuDiffs(a, b, 4)).toEqual([
      { cpu: 0, stat: 'alloc_fastpath', a: 90, b: 20 },
      { cpu: 0, stat: 'alloc_slowpath', a: 10, b: 80 },
      { cpu: 1, stat: 'barn_get', a: 0, b: 7 },
      { cpu: 1, stat: 'alloc_fastpath', a: 10, b: 5 },
    ]);
  });

  test('b/a as the CLI prints it', () => {
    // (the slow-path share and list_lock per 1000 ops come from the core:
    // test_fidelity_classic.c checks them.) The CLI's rel(): 2048 -> 78624 is +3739.1%; from 0: "new" or "-"
    expect(relChange(2048, 78624)).toBe('+3739.1%');
    expect(relChange(1480, 0)).toBe('-100.0%');
    expect(relChange(0, 8)).toBe('new');
    expect(relChange(0, 0)).toBe('-');
  });
});

describe('CompareSync', () => {
  let mod: SlubvizModule;
  beforeAll(async () => {
    mod = await loadModule();
  });
  const env = scenarioEnv();
  const settle = async (a: Store, b: Store) => {
    for (let i = 0; i < 20; i++) {
      await a.idle();
      await b.idle();
      await new Promise((r) => setTimeout(r, 0));
    }
  };

  test('side B opens A\'s trace under the compare config and follows A\'s op', async () => {
    const a = new Store(new LocalEngine(new Engine(mod)), env);
    const b = new Store(new LocalEngine(new Engine(mod)), env);
    await a.loadScenarioList();
    await a.loadScenario('basics');
    const sync = new CompareSync(a, b);
    a.setCompare({ preset: 'v6.19' });
    await settle(a, b);
    expect(b.getState().trace).toBe(scenario('basics'));
    expect(b.getState().frame?.snapshot.config.preset).toBe('v6.19');
    expect(a.getState().frame?.snapshot.config.preset).not.toBe('v6.19');
    await a.jumpToOp(7);
    await settle(a, b);
    expect(b.getState().frame?.opsDone).toBe(7);
    // the same cache by name on both sides
    const name = (s: Store) => s.getState().frame?.snapshot.caches.find((c) => c.id === s.getState().selectedCache)?.name;
    expect(name(b)).toBe(name(a));
    expect(cacheByName(b.getState().frame?.snapshot, name(a))).toBeDefined();
    sync.dispose();
  });
});
