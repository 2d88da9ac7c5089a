// @vitest-environment jsdom
// The CPU lanes renderer (lanes.ts) on a fixture snapshot and made-up
// windows of events: the axis (steps, or cycles when the events carry
// clocks), spins hatched with their holder marked, held locks from lock to
// unlock (or the snapshot), hand steps, and the same drawing whatever path
// led to it.
import { describe, expect, test } from 'vitest';
import type { Snapshot, SvzEvent } from '../engine/types';
import { dataDump } from './common';
import basics from './fixtures/basics-seq25.json';
import { fnColor, lanesModel, renderLanes, windowFunctions, type LanesText } from './lanes';

const snap0 = (basics as unknown as { snap: Snapshot }).snap;

/** The fixture with two CPUs, CPU 0 holding node 0's list_lock. */
function snapWith(listLockOwner: number): Snapshot {
  const s = structuredClone(snap0);
  s.cpus = [
    { ...s.cpus[0], cpu: 0, op: 3 },
    { ...s.cpus[0], cpu: 1, op: 4, lock_wait: { lock: 'list_lock', node: 0, cache: 0, owner: listLockOwner } },
  ];
  s.topology.nr_cpus = 2;
  for (const c of s.caches) for (const n of c.nodes ?? []) n.list_lock = c.id === 0 ? listLockOwner : -1;
  return s;
}

const ev = (seq: number, cpu: number, kind: string, more: Partial<SvzEvent> = {}): SvzEvent => ({
  seq, op: cpu + 3, cpu, fn: kind === 'return' ? 'kmem_cache_alloc' : 'get_from_partial_node', kind, cache: 0, count: 0, value: 0,
  text: `#${seq} ${kind}`, ...more,
});

const T: LanesText = {
  cpu: (c) => `CPU ${c}`,
  axis: { step: 'step', cycles: 'cycles' },
  idle: 'idle',
  op: (op) => `op ${op}`,
  spins: (l, o) => `spins on ${l} held by ${o}`,
  spinsShort: (l) => `spins: ${l}`,
  holds: (c, l) => `CPU ${c} holds ${l}`,
  hand: 'by hand',
  label: 'lanes',
};

function svg(): SVGSVGElement {
  return document.createElementNS('http://www.w3.org/2000/svg', 'svg');
}

const WINDOW = [
  ev(10, 0, 'lock', { lock: 'list_lock', node: 0 }),
  ev(11, 1, 'spin', { lock: 'list_lock', node: 0, value: 0 }),
  ev(12, 0, 'cmpxchg'),
  ev(13, 1, 'spin', { lock: 'list_lock', node: 0, value: 0, hand: true }),
];

describe('lanesModel', () => {
  test('steps axis: one unit per event; spins know their holder; the open hold runs to the end', () => {
    const m = lanesModel(snapWith(0), WINDOW);
    expect(m.axis).toBe('step');
    expect(m.cpus).toEqual([0, 1]);
    expect([m.x0, m.x1]).toEqual([10, 14]);
    expect(m.segs.filter((s) => s.spin).map((s) => [s.seq, s.holder])).toEqual([[11, 0], [13, 0]]);
    expect(m.current).toBe(13);
    const ll = m.holds.filter((h) => h.lock === 'list_lock');
    expect(ll).toEqual([{ cpu: 0, lock: 'list_lock', node: 0, cache: 0, x0: 10, x1: 14 }]);
  });

  test('an unlock without its lock: held from the window start; a lock the snapshot says is held, over the window', () => {
    const m = lanesModel(snapWith(1), [ev(20, 0, 'unlock', { lock: 'list_lock', node: 0 }), ev(21, 0, 'return')]);
    expect(m.holds.filter((h) => h.lock === 'list_lock')).toEqual([
      { cpu: 0, lock: 'list_lock', node: 0, cache: 0, x0: 20, x1: 21 },
      { cpu: 1, lock: 'list_lock', node: 0, cache: 0, x0: 20, x1: 22 },
    ]);
  });

  test('cycles axis: events carrying clocks are placed by them', () => {
    const w = [ev(5, 0, 'lock', { lock: 'list_lock', node: 0, t: 100, cycles: 20 }), ev(6, 1, 'spin', { lock: 'list_lock', node: 0, value: 0, t: 90, cycles: 30 })];
    const m = lanesModel(snapWith(0), w);
    expect(m.axis).toBe('cycles');
    expect([m.x0, m.x1]).toEqual([90, 120]);
    expect(m.segs.map((s) => [s.x0, s.x1])).toEqual([[100, 120], [90, 120]]);
  });

  test('busy lanes only: CPUs with an event or an op in flight', () => {
    const s = snapWith(0);
    s.cpus.push({ ...s.cpus[0], cpu: 2, op: null, lock_wait: null });
    expect(lanesModel(s, WINDOW).cpus).toEqual([0, 1, 2]);
    expect(lanesModel(s, WINDOW, null, true).cpus).toEqual([0, 1]);
    expect(lanesModel(s, WINDOW, null, true, 2).cpus).toEqual([0, 1, 2]);
  });

  test('function colours are stable; the key lists the window\'s functions, most frequent first', () => {
    expect(fnColor('__slab_free')).toBe(fnColor('__slab_free'));
    expect(fnColor('work')).toBe('#d0d0d0');
    const m = lanesModel(snapWith(0), [...WINDOW, ev(14, 0, 'return')]);
    expect(windowFunctions(m).map((f) => [f.fn, f.n])).toEqual([['get_from_partial_node', 4], ['kmem_cache_alloc', 1]]);
  });
});

describe('renderLanes', () => {
  test('lanes, segments, hatched spins, holder marks, holds and hand notches as data-* attributes', () => {
    const snap = snapWith(0);
    const m = lanesModel(snap, WINDOW);
    const el = svg();
    renderLanes(el, snap, m, { width: 600, text: T });
    expect(el.getAttribute('data-lanes-axis')).toBe('step');
    expect([...el.querySelectorAll('g.lane')].map((g) => g.getAttribute('data-lane-status'))).toEqual(['op 3', 'spins on list_lock held by 0']);
    expect(el.querySelectorAll('g.lane-seg')).toHaveLength(4);
    const spins = el.querySelectorAll('g.lane-seg[data-lane-spin="1"]');
    expect(spins).toHaveLength(2);
    expect(spins[0].querySelector('rect.seg-spin')?.getAttribute('fill')).toBe('url(#lane-spin)');
    expect(spins[0].getAttribute('data-lane-holder')).toBe('0');
    expect(el.querySelectorAll('path.lane-holder[data-lane-holder-cpu="0"]')).toHaveLength(2);
    expect(el.querySelector('rect.lane-hold[data-lane-hold="list_lock"]')?.getAttribute('data-lane-hold-cpu')).toBe('0');
    expect(el.querySelectorAll('path.lane-hand')).toHaveLength(1);
    expect(el.querySelector('g.lane-seg[data-lane-current="1"]')?.getAttribute('data-lane-seq')).toBe('13');
    expect(el.querySelector('g.lane-seg[data-lane-seq="12"] rect.seg-fill')?.getAttribute('fill')).toBe(fnColor('get_from_partial_node'));
  });

  test('the drawing depends on the window only, not on the windows drawn before', () => {
    const snap = snapWith(0);
    const direct = svg();
    renderLanes(direct, snap, lanesModel(snap, WINDOW.slice(1)), { width: 600, text: T });
    const slid = svg();
    renderLanes(slid, snap, lanesModel(snap, [ev(9, 1, 'return'), ...WINDOW.slice(0, 3)]), { width: 600, text: T });
    renderLanes(slid, snap, lanesModel(snap, WINDOW.slice(1)), { width: 600, text: T });
    expect(dataDump(slid)).toEqual(dataDump(direct));
  });

  test('a window of new steps only (playing fast) draws as it would on its own', () => {
    const snap = snapWith(0);
    const direct = svg();
    renderLanes(direct, snap, lanesModel(snap, WINDOW), { width: 600, text: T });
    const before = svg();
    renderLanes(before, snap, lanesModel(snap, [ev(1, 1, 'spin', { lock: 'list_lock', node: 0, value: 0 }), ev(2, 0, 'return'), ev(3, 1, 'return', { hand: true })]), { width: 600, text: T });
    renderLanes(before, snap, lanesModel(snap, WINDOW), { width: 600, text: T });
    expect(dataDump(before)).toEqual(dataDump(direct));
    const glyphs = (el: SVGSVGElement) =>
      [...el.querySelectorAll('g.lane-seg')].map((g) =>
        [...g.children].map((c) => `${c.tagName} ${c.getAttribute('fill')} ${c.getAttribute('display')} ${c.getAttribute('stroke')} ${c.textContent}`).join(' | '),
      );
    expect(glyphs(before)).toEqual(glyphs(direct));
  });

  test('glyphs taken over by other steps (spins where there were none and back) draw as the last window alone', () => {
    const snap = snapWith(0);
    // each window all new steps, the spins at other places each time
    const spinAt = (seq0: number, spins: number[]) =>
      [0, 1, 2, 3].map((i) => (spins.includes(i) ? ev(seq0 + i, i % 2, 'spin', { lock: 'list_lock', node: 0, value: 0 }) : ev(seq0 + i, i % 2, 'return')));
    const last = spinAt(300, [0, 3]);
    const direct = svg();
    renderLanes(direct, snap, lanesModel(snap, last), { width: 600, text: T });
    const played = svg();
    for (const w of [spinAt(100, [1, 2]), spinAt(200, []), spinAt(250, [0, 1, 2, 3]), last]) renderLanes(played, snap, lanesModel(snap, w), { width: 600, text: T });
    expect(dataDump(played)).toEqual(dataDump(direct));
    // every element, its attributes (x apart: the layer's slide origin
    // depends on the windows before, lanes.ts) and text, in order
    const segs = (el: SVGSVGElement) =>
      [...el.querySelectorAll('g.layer-segs *')].map((n) =>
        [n.tagName, ...[...n.attributes].filter((a) => a.name !== 'x').map((a) => `${a.name}=${a.value}`).sort(), n.children.length ? '' : n.textContent].join(' '),
      );
    expect(segs(played)).toEqual(segs(direct));
    expect(direct.querySelectorAll('rect.seg-spin')).toHaveLength(2);
  });
});
