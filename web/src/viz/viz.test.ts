// @vitest-environment jsdom
import { describe, expect, test } from 'vitest';
import type { Snapshot, SvzEvent } from '../engine/types';
import { barnRows, renderBarns } from './barns';
import { dataDump, type VizOptions } from './common';
import basics from './fixtures/basics-seq25.json';
import cycle from './fixtures/sheaf-cycle-op700.json';
import ublk from './fixtures/ublk-op3000.json';
import { renderPartialLists, slabListRows } from './partial';
import { renderSheaves, sheafRows } from './sheaves';
import { objectCells, pickSlab, renderSlab, slabGridLayout } from './slab';
import { renderSparkline, sparkPath } from './sparkline';
import { renderTimeline } from './timeline';
import { renderTopology } from './topology';

type Fx = { snap: Snapshot; event: SvzEvent | null };
const B = basics as unknown as Fx;
const C = cycle as unknown as Fx;
const U = ublk as unknown as Fx;
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

  test('timeline markers and sparklines', () => {
    const el = svg();
    renderTimeline(el, [{ op0: 0, op1: 5, cls: 'new_slab' }, { op0: 5, op1: 10, cls: 'fast' }], 10, 5, 200);
    expect([...el.querySelectorAll('rect.mk')].map((r) => r.getAttribute('data-path'))).toEqual(['new_slab', 'fast']);
    expect(el.querySelector('rect.mk')?.getAttribute('width')).toBe('100');
    expect(sparkPath([0, 1, 2], 90, 18)).toMatch(/^M/);
    const sp = svg();
    renderSparkline(sp, [0, 5, 10], 1);
    expect(sp.querySelector('line.cursor')?.getAttribute('x1')).toBe('45');
  });
});
