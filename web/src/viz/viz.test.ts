// @vitest-environment jsdom
import { describe, expect, test } from 'vitest';
import type { Snapshot, SvzEvent } from '../engine/types';
import { barnRows, renderBarns } from './barns';
import { dataDump, type VizOptions } from './common';
import basics from './fixtures/basics-seq25.json';
import classic from './fixtures/classic-churn-op396.json';
import imported from './fixtures/import-v6.12-op7.json';
import { hasKcpu, kcpuRows, renderKcpu } from './kcpu';
import { canvasHit, canvasLayout, renderSlabCanvas } from './slabCanvas';
import { cacheSites } from './slab';
import cycle from './fixtures/sheaf-cycle-op700.json';
import ublk from './fixtures/ublk-op3000.json';
import { renderPartialLists, slabListRows } from './partial';
import { renderSheaves, sheafRows } from './sheaves';
import { objectCells, pickSlab, renderSlab, slabGridLayout, tangledFreelist } from './slab';
import { renderSparkline, sparkPath } from './sparkline';
import { renderTimeline, timelineBuckets } from './timeline';
import { renderTopology } from './topology';

type Fx = { snap: Snapshot; event: SvzEvent | null };
const B = basics as unknown as Fx;
const C = cycle as unknown as Fx;
const U = ublk as unknown as Fx;
const K = classic as unknown as Fx;
const I = imported as unknown as Fx;
const opts = (cache = 0): VizOptions => ({ animMs: 0, cache });

function svg(): SVGSVGElement {
  return document.createElementNS('http://www.w3.org/2000/svg', 'svg');
}

describe('viz render functions on fixture snapshots', () => {
  test('topology: nodes, CPUs, memoryless nodes', () => {
    const el = svg();
    renderTopology(el, U, opts());
    expect(el.querySelectorAll('[data-node]').length).toBe(8);
    expect(el.querySelectorAll('[data-memoryless=true]').length).toBe(6);
    expect(el.querySelectorAll('[data-cpu]').length).toBe(64);
    expect(el.querySelector('[data-node="1"]')?.getAttribute('data-memoryless')).toBe('false');
  });

  test('sheaves: main and spare per CPU with sizes; object cells in the stack', () => {
    const el = svg();
    renderSheaves(el, B, opts());
    const rows = sheafRows(B, 0);
    expect(rows).toHaveLength(1);
    const main = el.querySelector('g.cpu-row[data-cpu="0"] g.sheaf[data-where=main]')!;
    expect(main.getAttribute('data-sheaf-id')).toBe(String(rows[0].main!.id));
    expect(main.getAttribute('data-size')).toBe(String(rows[0].main!.size));
    expect(main.querySelectorAll('[data-object-state=sheaf]').length).toBe(rows[0].main!.size);
    // the sheaf the event touched is marked
    expect(main.getAttribute('data-touched')).toBe(B.event?.sheaf === rows[0].main!.id ? 'true' : 'false');
    // 64 CPUs: bars, no per-object cells
    const big = svg();
    renderSheaves(big, U, opts());
    expect(big.querySelectorAll('g.cpu-row').length).toBe(64);
    expect(big.querySelectorAll('rect.obj').length).toBe(0);
  });

  test('barns: full/empty sheaves against the limits', () => {
    const el = svg();
    renderBarns(el, C, opts());
    const rows = barnRows(C, 0);
    const barn = el.querySelector('[data-barn-node="0"]')!;
    expect(barn.getAttribute('data-nr-empty')).toBe(String(rows[0].barn!.nr_empty));
    expect(barn.querySelectorAll('g.sheaf[data-list=barn_empty]').length).toBe(rows[0].empty.length);
    expect(barn.querySelectorAll('rect.slot').length).toBe(20);
    // ublk under v7.0-rc1: memoryless nodes have no kmem_cache_node, so no row
    const u = svg();
    renderBarns(u, U, opts());
    expect(u.querySelectorAll('[data-barn-node]').length).toBe(barnRows(U, 0).length);
  });

  test('slab lists: slabs in list order', () => {
    const el = svg();
    renderPartialLists(el, C, { ...opts(), selectedSlab: 0 });
    const rows = slabListRows(C, 0);
    const partial = rows.find((r) => r.list === 'partial')!;
    const drawn = [...el.querySelectorAll('g.slab-list[data-list=partial] g.slab')].map((g) => Number(g.getAttribute('data-slab-id')));
    expect(drawn).toEqual(partial.slabs.map((s) => s.id));
    expect(el.querySelector('g.slab[data-slab-id="0"]')?.getAttribute('data-selected')).toBe('true');
  });

  test('slab detail: a long shuffled freelist is drawn faint, the hovered object\'s arrows in full', () => {
    // 51 objects (bio-256's slab), all free, linked in a shuffled order:
    // object 7 * i mod 51 (7 and 51 are coprime, so every object once)
    const base = pickSlab(B, 0, null)!;
    const order = Array.from({ length: 51 }, (_, i) => base.obj0 + ((7 * i) % 51));
    const slab = { ...base, objects: 51, inuse: 0, state: 'f'.repeat(51), freelist: order, owners: [], free: [] };
    expect(tangledFreelist(order)).toBe(true);
    expect(tangledFreelist(order.slice().sort((a, b) => a - b))).toBe(false);
    const el = svg();
    renderSlab(el, slab, B, opts());
    expect(el.querySelector('g.arrows')?.getAttribute('data-tangled')).toBe('true');
    const op = () => [...el.querySelectorAll('path.fl')].map((p) => p.getAttribute('opacity'));
    expect(op()[0]).toBe('0.9'); // the head's first arrow
    expect(op().slice(1).every((o) => o === '0.15')).toBe(true);
    // hover object #k of the freelist (k = 10): the arrow into it (9) and out of it (10)
    const id = order[10];
    el.querySelector(`[data-object-id="${id}"]`)!.dispatchEvent(new MouseEvent('mouseenter'));
    const hl = [...el.querySelectorAll('path.fl[data-hl=true]')].map((p) => Number(p.getAttribute('data-freelist-index')));
    expect(hl).toEqual([9, 10]);
    expect(op()[10]).toBe('1');
    el.querySelector(`[data-object-id="${id}"]`)!.dispatchEvent(new MouseEvent('mouseleave'));
    expect(el.querySelectorAll('path.fl[data-hl=true]').length).toBe(0);
    // the keyboard: one tab stop; focus shows the same arrows; ArrowRight
    // walks to the next object of the grid (index + 1), which then gets them
    expect(el.querySelectorAll('[data-object-id][tabindex="0"]').length).toBe(1);
    const cellAt = (i: number) => el.querySelector<SVGGElement>(`[data-object-index="${i}"]`)!;
    const k = id - base.obj0; // object `id`'s index in the slab
    cellAt(k).dispatchEvent(new FocusEvent('focus'));
    expect([...el.querySelectorAll('path.fl[data-hl=true]')].map((p) => Number(p.getAttribute('data-freelist-index')))).toEqual([9, 10]);
    expect(cellAt(k).getAttribute('tabindex')).toBe('0');
    const next = k + 1; // order[j] = 7j mod 51, so index k + 1 is at freelist position j with 7j = k + 1 (mod 51)
    const j = order.indexOf(base.obj0 + next);
    document.body.append(el); // focus needs a connected element
    cellAt(k).focus();
    cellAt(k).dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
    expect(document.activeElement).toBe(cellAt(next));
    const want = [j - 1, j].filter((x) => x >= 0 && x < 50);
    expect([...el.querySelectorAll('path.fl[data-hl=true]')].map((p) => Number(p.getAttribute('data-freelist-index')))).toEqual(want);
    cellAt(next).blur();
    expect(el.querySelectorAll('path.fl[data-hl=true]').length).toBe(0);
    el.remove();
  });

  test('slab detail: one cell per object with state, freelist arrows in order', () => {
    const slab = pickSlab(B, 0, null)!;
    expect(slab).toBeTruthy();
    const el = svg();
    renderSlab(el, slab, B, opts());
    const cells = el.querySelectorAll('[data-object-id]');
    expect(cells.length).toBe(slab.objects);
    const states = [...cells].map((c) => c.getAttribute('data-object-state'));
    expect(states.filter((s) => s === 'free').length).toBe([...slab.state].filter((c) => c === 'f').length);
    // a letter, not only a color
    expect(cells[0].querySelector('text')?.textContent).toMatch(/^[FASBCL]$/);
    const arrows = [...el.querySelectorAll('path.fl')];
    expect(arrows.length).toBe(slab.freelist.length - 1);
    arrows.forEach((a, k) => {
      expect(a.getAttribute('data-from')).toBe(String(slab.freelist[k]));
      expect(a.getAttribute('data-to')).toBe(String(slab.freelist[k + 1]));
    });
    expect(objectCells(slab).filter((c) => c.fl >= 0).map((c) => c.id).sort()).toEqual([...slab.freelist].sort());
    expect(slabGridLayout(64).cols).toBe(16);
    renderSlab(el, null, B, opts());
    expect(el.querySelectorAll('[data-object-id]').length).toBe(0);
  });

  test('rendering twice is idempotent (pure over the input)', () => {
    const a = svg();
    const b = svg();
    renderSheaves(a, C, opts());
    renderSheaves(a, B, opts());
    renderSheaves(b, B, opts());
    expect(dataDump(a)).toEqual(dataDump(b));
  });

  test('timeline buckets and sparklines', () => {
    const el = svg();
    // two buckets of 5 ops: the first 5 alloc fast paths and a new slab, the
    // second 5 free slow paths; the first is the denser (6 events in 5 ops)
    const b = timelineBuckets({ sampleOps: [0, 5, 10], samples: { alloc_fastpath: [0, 5, 5], slabs_allocated: [0, 1, 1], free_slowpath: [0, 0, 5] } });
    renderTimeline(el, b, 10, 5, 200, 20);
    const cols = [...el.querySelectorAll('g.bk')];
    expect(cols.map((g) => [...g.querySelectorAll('rect')].map((r) => r.getAttribute('data-series')))).toEqual([['alloc_fast', 'slab'], ['free_slow']]);
    expect(cols.map((g) => g.getAttribute('data-density'))).toEqual(['1.000', '0.833']);
    expect(cols[0].querySelector('rect')?.getAttribute('width')).toBe('100');
    // a step moves the playhead only: the bars are drawn from the same buckets
    const head = () => el.querySelector('rect.head')?.getAttribute('x');
    expect(head()).toBe('99'); // op 5 of 10 at 200 px, less 1
    cols[0].querySelector('rect')!.setAttribute('data-probe', 'kept');
    renderTimeline(el, b, 10, 8, 200, 20);
    expect(head()).toBe('159');
    expect(cols[0].querySelector('rect')!.getAttribute('data-probe')).toBe('kept');
    expect(el.lastElementChild?.getAttribute('class')).toBe('head');
    // new buckets (another counter, a new pre-pass) redraw the bars
    renderTimeline(el, timelineBuckets({ sampleOps: [0, 10], samples: { alloc_fastpath: [0, 3] } }), 10, 8, 200, 20);
    expect(el.querySelectorAll('g.bk').length).toBe(1);
    expect(el.lastElementChild?.getAttribute('class')).toBe('head');
    expect(sparkPath([0, 1, 2], 90, 18)).toMatch(/^M/);
    const sp = svg();
    renderSparkline(sp, [0, 5, 10], 1);
    expect(sp.querySelector('line.cursor')?.getAttribute('x1')).toBe('45');
  });

  test('classic per-CPU view: c->slab, the c->freelist chain in order, the c->partial chain with head->slabs, tid', () => {
    expect(K.snap.config.era).toBe('classic');
    const cache = K.snap.caches.find((c) => c.cpus?.some((x) => (x.partial?.length ?? 0) >= 2))!;
    expect(hasKcpu(K, cache.id)).toBe(true);
    expect(hasKcpu(B, 0)).toBe(false);
    const el = svg();
    renderKcpu(el, K, opts(cache.id));
    for (const c of cache.cpus!) {
      const row = el.querySelector(`g.kcpu-row[data-cpu="${c.cpu}"]`)!;
      expect(row.getAttribute('data-tid')).toBe(String(c.tid));
      expect(row.getAttribute('data-c-slab')).toBe(c.slab === null ? 'none' : String(c.slab));
      expect(row.querySelector('g.c-slab')!.getAttribute('data-slab-id')).toBe(c.slab === null ? 'none' : String(c.slab));
      const fl = [...row.querySelectorAll('g.c-fl')].map((g) => Number(g.getAttribute('data-object-id')));
      expect(fl).toEqual(c.freelist!.slice(0, fl.length));
      expect(row.getAttribute('data-freelist-len')).toBe(String(c.freelist!.length));
      const ps = [...row.querySelectorAll('g.c-partial')].map((g) => Number(g.getAttribute('data-slab-id')));
      expect(ps).toEqual(c.partial);
      if (c.partial!.length) expect(row.querySelector('g.c-partial[data-partial-pos="0"]')!.getAttribute('data-head-slabs')).toBe(String(c.partial!.length));
    }
    expect(kcpuRows(K, cache.id)).toHaveLength(cache.cpus!.length);
    // cpu partial slabs also show in the slab lists, as their own row
    const lists = svg();
    renderPartialLists(lists, K, opts(cache.id));
    const cpuPartial = cache.cpus!.flatMap((c) => c.partial!);
    expect(lists.querySelectorAll('g.slab-list[data-list=cpu_partial] g.slab').length).toBe(cpuPartial.length);
  });

  test('slab detail: owners (handle, call site) and the call-site filter', () => {
    const slab = I.snap.slabs.find((s) => (s.owners ?? []).length > 0)!;
    const el = svg();
    renderSlab(el, slab, I, opts(slab.cache));
    const o = slab.owners![0];
    const cell = el.querySelector(`[data-object-id="${o.obj}"]`)!;
    expect(cell.getAttribute('data-owner')).toBe(o.handle);
    expect(cell.getAttribute('data-site')).toBe(o.site);
    expect(cell.querySelector('title')?.textContent).toContain(o.site);
    expect(cell.hasAttribute('data-site-match')).toBe(false);
    renderSlab(el, slab, I, { ...opts(slab.cache), siteFilter: o.site.slice(0, 6) });
    expect(el.querySelector(`[data-object-id="${o.obj}"]`)!.getAttribute('data-site-match')).toBe('true');
    const others = [...el.querySelectorAll('[data-site-match=false]')];
    expect(others.length).toBe(slab.objects - slab.owners!.filter((x) => x.site.includes(o.site.slice(0, 6))).length);
    const sites = cacheSites(I.snap.slabs, slab.cache);
    expect(sites.map((x) => x.site)).toContain(o.site);
  });

  test('large slabs on a canvas keep their state in data-* attributes', () => {
    const slab = { ...B.snap.slabs[0] };
    const n = 1000;
    const big = { ...slab, objects: n, state: 'u'.repeat(10) + 'f'.repeat(n - 10), freelist: [], owners: [], free: [] };
    const canvas = document.createElement('canvas');
    const cells = renderSlabCanvas(canvas, big, B, opts());
    expect(canvas.dataset.render).toBe('canvas');
    expect(canvas.dataset.objects).toBe(String(n));
    expect(canvas.dataset.states).toBe(big.state);
    expect(canvas.dataset.stateCounts).toBe('allocated:10,free:990');
    const L = canvasLayout(n);
    const p = L.pos(42);
    expect(canvasHit(cells, n, p.x + 1, p.y + 1)?.index).toBe(42);
  });
});
