// The flights of Transitions.tsx: which moves an event or a batch of steps
// asks for, and how long they take while playing.
import { describe, expect, test } from 'vitest';
import type { Snapshot, SvzEvent } from '../engine/types';
import { batchFlights, flightMs, flightsOf } from './Transitions';

const ev = (p: Partial<SvzEvent>): SvzEvent => ({ seq: 0, op: 0, cpu: 2, fn: 'x', kind: 'check', count: 1, value: 0, text: '', ...p });
const snap = (sheaves: [number, string, number][], slabs: [number, string][]) =>
  ({
    cpus: [{ cpu: 0, node: 0 }, { cpu: 1, node: 0 }, { cpu: 2, node: 1 }],
    sheaves: sheaves.map(([id, where, where_id]) => ({ id, cache: 0, where, where_id })),
    slabs: slabs.map(([id, list]) => ({ id, cache: 0, list })),
  }) as unknown as Snapshot;

describe('flights', () => {
  test('an event: the thing, and where its containers are drawn', () => {
    const s = snap([], []);
    const [f] = flightsOf(ev({ kind: 'move_sheaf', sheaf: 4, from: 'main', to: 'barn_full' }), s);
    expect(f).toMatchObject({ kind: 'sheaf', id: 4, from: 'main', to: 'barn_full' });
    // cpu 2 sits on node 1 (snapshot cpus): its barn
    expect(f.at).toEqual({
      from: '[data-panel=sheaves] g.cpu-row[data-cpu="2"] g.sheaf[data-where=main]',
      to: '[data-panel=barns] [data-barn-node="1"] [data-list=barn_full]',
    });
    // 60 objects into a sheaf, no object named: container to container
    expect(flightsOf(ev({ kind: 'take_object', count: 60, slab: 3, sheaf: 1, from: 'freelist', to: 'sheaf' }), s)[0]).toMatchObject({ kind: 'object', id: -1 });
    expect(flightsOf(ev({ kind: 'stat' }), s)).toEqual([]);
    expect(flightsOf(ev({ kind: 'move_slab', slab: 2, from: 'partial', to: 'partial' }), s)).toEqual([]);
  });

  test('a batch: the sheaves of the cache shown that changed place, its slabs that changed list, capped; each end names its place', () => {
    // [id, where, where_id]: where_id is the CPU for main/spare, the node for a barn list
    const a = snap([[1, 'main', 0], [2, 'spare', 0], [3, 'barn_full', 0]], [[7, 'partial'], [8, 'full']]);
    const b = snap([[1, 'barn_full', 0], [2, 'spare', 0], [3, 'main', 1]], [[7, 'full'], [8, 'full']]);
    // the slabs of snap() are on node undefined: give them node 1
    for (const s of [...a.slabs, ...b.slabs]) s.node = 1;
    expect(batchFlights(a, b, 0)).toEqual({
      flights: [
        {
          kind: 'sheaf', id: 1, from: 'main', to: 'barn_full',
          at: { from: '[data-panel=sheaves] g.cpu-row[data-cpu="0"] g.sheaf[data-where=main]', to: '[data-panel=barns] [data-barn-node="0"] [data-list=barn_full]' },
        },
        {
          kind: 'sheaf', id: 3, from: 'barn_full', to: 'main',
          at: { from: '[data-panel=barns] [data-barn-node="0"] [data-list=barn_full]', to: '[data-panel=sheaves] g.cpu-row[data-cpu="1"] g.sheaf[data-where=main]' },
        },
        {
          kind: 'slab', id: 7, from: 'partial', to: 'full',
          at: { from: '[data-panel=partial] g.slab-list[data-node="1"][data-list=partial]', to: '[data-panel=partial] g.slab-list[data-node="1"][data-list=full]' },
        },
      ],
      more: 0,
    });
    expect(batchFlights(a, b, 0, 1)).toMatchObject({ more: 2 });
    // another cache's moves are not drawn: none fly
    expect(batchFlights(a, b, 5)).toEqual({ flights: [], more: 0 });
  });

  test('durations: paused 1.6 x animMs; playing, what fits one step; off with animations off', () => {
    expect(flightMs(250, false, 10)).toBe(400);
    expect(flightMs(250, true, 2)).toBe(400); // 450 ms per step at 2/s: the whole flight fits
    expect(flightMs(250, true, 10)).toBe(90); // 0.9 * 100 ms
    expect(flightMs(0, true, 2)).toBe(0);
  });
});
