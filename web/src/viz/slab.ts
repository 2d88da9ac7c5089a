// Slab detail: the object grid by state (color plus a letter, so state is
// told without color), the freelist as numbered arrows in order, the
// current event's object outlined, each object's owner (the trace's handle
// and call site) in its data-* attributes and tooltip; a call-site filter
// dims the objects of other sites. Slabs of more than CANVAS_MIN objects
// are drawn on a canvas instead (slabCanvas.ts).
import type { SnapOwner, SnapSlab } from '../engine/types';
import { ownerSites } from '../engine/wire';
import { GLYPHS, anim, objectState, root, siteMatches, type VizInput, type VizOptions } from './common';
import { t as msg, type MsgKey } from '../i18n';

const stateDesc = (ch: string) => msg(`objstate.${objectState(ch).name}` as MsgKey);

/** Slabs with more objects than this are drawn on a canvas. */
export const CANVAS_MIN = 256;

export interface ObjectCell {
  id: number;
  index: number;
  state: string;
  /** position on the freelist, -1 if not on it */
  fl: number;
  /** the handle holding it and its call site, if any */
  owner: SnapOwner | null;
}

export function objectCells(slab: SnapSlab): ObjectCell[] {
  const flPos = new Map(slab.freelist.map((o, i) => [o, i]));
  const owners = new Map((slab.owners ?? []).map((o) => [o.obj, o]));
  const cells: ObjectCell[] = [];
  for (let i = 0; i < slab.objects; i++) {
    const id = slab.obj0 + i;
    cells.push({ id, index: i, state: slab.state[i] ?? '?', fl: flPos.get(id) ?? -1, owner: owners.get(id) ?? null });
  }
  return cells;
}

/** 'true' / 'false' whether a cell's owner matches the site filter; null without a filter. */
export function cellSiteMatch(c: ObjectCell, filter: string | undefined): 'true' | 'false' | null {
  if (!filter) return null;
  return c.owner && siteMatches(c.owner.site, filter) ? 'true' : 'false';
}

/** Call sites of a cache's live objects, most objects first. */
export function cacheSites(slabs: SnapSlab[], cacheId: number): { site: string; count: number }[] {
  const n = new Map<string, number>();
  for (const s of slabs) if (s.cache === cacheId) for (const [site, count] of ownerSites(s)) n.set(site, (n.get(site) ?? 0) + count);
  return [...n].map(([site, count]) => ({ site, count })).sort((a, b) => b.count - a.count || (a.site < b.site ? -1 : 1));
}

/** The slab the detail view shows: the selected one, else the one the
 * current event names, else the head of the cache's first partial list,
 * else any slab of the cache. */
export function pickSlab({ snap, event }: VizInput, cacheId: number, selected: number | null | undefined): SnapSlab | null {
  const mine = snap.slabs.filter((s) => s.cache === cacheId);
  if (selected !== null && selected !== undefined) {
    const s = mine.find((x) => x.id === selected);
    if (s) return s;
  }
  if (event?.slab !== undefined) {
    const s = mine.find((x) => x.id === event.slab);
    if (s) return s;
  }
  if (event?.obj !== undefined) {
    const s = mine.find((x) => event.obj! >= x.obj0 && event.obj! < x.obj0 + x.objects);
    if (s) return s;
  }
  const cache = snap.caches.find((c) => c.id === cacheId);
  for (const n of cache?.nodes ?? []) {
    const s = mine.find((x) => x.id === n.partial[0]);
    if (s) return s;
  }
  return mine[0] ?? null;
}

/** A long freelist that jumps around the slab (CONFIG_SLAB_FREELIST_RANDOM)
 * is a tangle as arrows: its arrows are drawn faint, the head's first one
 * in full, and the hovered object's in- and out-arrows in full. */
export function tangledFreelist(freelist: number[]): boolean {
  if (freelist.length <= 12) return false;
  let jumps = 0;
  for (let k = 1; k < freelist.length; k++) if (freelist[k] !== freelist[k - 1] + 1) jumps++;
  return jumps > freelist.length / 4;
}

const CELL = 26;
const GAP = 4;

export function slabGridLayout(objects: number) {
  const cols = objects <= 16 ? objects : objects <= 64 ? 16 : 32;
  const rows = Math.ceil(objects / Math.max(1, cols));
  const pos = (i: number) => ({ x: (i % cols) * (CELL + GAP) + 4, y: Math.floor(i / cols) * (CELL + GAP) + 4 });
  return { cols, rows, pos, width: cols * (CELL + GAP) + 8, height: rows * (CELL + GAP) + 8 };
}

export function renderSlab(svg: SVGSVGElement, slab: SnapSlab | null, input: VizInput, opts: VizOptions): void {
  const s = root(svg);
  if (!slab) {
    s.selectAll('*').remove();
    s.attr('viewBox', '0 0 10 10').attr('width', 10).attr('height', 10).attr('data-slab-id', null);
    return;
  }
  const L = slabGridLayout(slab.objects);
  const cells = objectCells(slab);
  const ev = input.event;
  s.attr('viewBox', `0 0 ${L.width} ${L.height}`).attr('width', L.width).attr('height', L.height)
    .attr('data-slab-id', slab.id).attr('data-inuse', slab.inuse).attr('data-objects', slab.objects);
  if (s.select('defs').empty()) {
    s.append('defs').append('marker').attr('id', 'fl-arrow').attr('viewBox', '0 0 10 10').attr('refX', 9).attr('refY', 5)
      .attr('markerWidth', 6).attr('markerHeight', 6).attr('orient', 'auto-start-reverse')
      .append('path').attr('d', 'M0,0 L10,5 L0,10 z').attr('fill', GLYPHS.freelistArrow);
  }
  let gCells = s.select<SVGGElement>('g.cells');
  if (gCells.empty()) gCells = s.append('g').attr('class', 'cells');
  let gArrows = s.select<SVGGElement>('g.arrows');
  if (gArrows.empty()) gArrows = s.append('g').attr('class', 'arrows').attr('pointer-events', 'none');

  const cell = gCells
    .selectAll<SVGGElement, ObjectCell>('g.obj')
    .data(cells, (c) => String(c.index))
    .join((enter) => {
      const e = enter.append('g').attr('class', 'obj');
      e.append('rect').attr('width', CELL).attr('height', CELL).attr('rx', 3);
      e.append('text').attr('class', 'st').attr('x', CELL / 2).attr('y', CELL / 2 + 4).attr('text-anchor', 'middle').attr('font-size', 11).attr('font-weight', 'bold');
      e.append('title');
      return e;
    })
    .attr('transform', (c) => `translate(${L.pos(c.index).x},${L.pos(c.index).y})`)
    .attr('data-object-id', (c) => c.id)
    .attr('data-object-index', (c) => c.index)
    .attr('data-object-state', (c) => objectState(c.state).name)
    .attr('data-freelist-pos', (c) => c.fl)
    .attr('data-owner', (c) => c.owner?.handle ?? null)
    .attr('data-site', (c) => (c.owner ? c.owner.site : null))
    .attr('data-site-match', (c) => cellSiteMatch(c, opts.siteFilter))
    .attr('opacity', (c) => (cellSiteMatch(c, opts.siteFilter) === 'false' ? 0.25 : null))
    .attr('data-touched', (c) => (ev?.obj === c.id ? 'true' : 'false'));
  anim(cell.select('rect'), opts.animMs)
    .attr('fill', (c) => objectState(c.state).color)
    .attr('stroke', (c) => (ev?.obj === c.id ? GLYPHS.touched : '#556'))
    .attr('stroke-width', (c) => (ev?.obj === c.id ? 3 : 1))
    // free objects dashed: shape differs too, not only color
    .attr('stroke-dasharray', (c) => (c.state === 'f' ? '3 2' : null));
  cell.select('text.st')
    .text((c) => objectState(c.state).label)
    .attr('fill', (c) => (c.state === 'u' || c.state === 's' || c.state === 'l' || c.state === 'c' ? '#fff' : '#222'));
  cell.select('title').text(
    (c) =>
      msg('viz.objectTitle', { id: c.id, index: c.index, desc: stateDesc(c.state) }) + (c.fl >= 0 ? msg('viz.flPos', { n: c.fl }) : '') +
      (c.owner ? msg(c.owner.site ? 'viz.heldByFrom' : 'viz.heldBy', { handle: c.owner.handle, site: c.owner.site ?? '' }) : ''),
  );

  // freelist arrows, in order: freelist[k] -> freelist[k+1]
  const pairs = slab.freelist.slice(0, -1).map((o, k) => ({ k, a: o - slab.obj0, b: slab.freelist[k + 1] - slab.obj0 }));
  const tangled = tangledFreelist(slab.freelist);
  const rest = (p: { k: number }) => (!tangled ? 0.75 : p.k === 0 ? 0.9 : 0.15);
  gArrows.attr('data-tangled', tangled ? 'true' : 'false');
  // hovering an object shows its own arrows in full (to it and from it)
  const hover = (id: number | null) =>
    gArrows.selectAll<SVGPathElement, { k: number; a: number; b: number }>('path.fl')
      .attr('data-hl', (p) => (id !== null && (p.a + slab.obj0 === id || p.b + slab.obj0 === id) ? 'true' : null))
      .attr('opacity', (p) => (id !== null && (p.a + slab.obj0 === id || p.b + slab.obj0 === id) ? 1 : rest(p)))
      .attr('stroke-width', (p) => (id !== null && (p.a + slab.obj0 === id || p.b + slab.obj0 === id) ? 2.4 : 1.3));
  cell.on('mouseenter', (_e, c) => hover(c.id)).on('mouseleave', () => hover(null));
  // the keyboard gets the same detail: one tab stop for the grid (roving
  // tabindex), arrow keys walk the objects, focus shows the object's arrows
  const focusAt = Math.min(Number(s.attr('data-focus-index') ?? 0) || 0, slab.objects - 1);
  cell
    .attr('tabindex', (c) => (c.index === focusAt ? 0 : -1))
    .attr('role', 'img')
    .attr('aria-label', (c) => msg('viz.objectAria', { index: c.index, desc: stateDesc(c.state) }) + (c.fl >= 0 ? msg('viz.flPos', { n: c.fl }) : ''))
    .on('focus', (_e, c) => {
      s.attr('data-focus-index', c.index);
      cell.attr('tabindex', (d) => (d.index === c.index ? 0 : -1));
      hover(c.id);
    })
    .on('blur', () => hover(null))
    .on('keydown', (e: KeyboardEvent, c) => {
      const step: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: L.cols, ArrowUp: -L.cols };
      const to = e.key === 'Home' ? 0 : e.key === 'End' ? slab.objects - 1 : step[e.key] !== undefined ? c.index + step[e.key] : -1;
      if (to < 0 || to >= slab.objects) return;
      e.preventDefault();
      cell.filter((d) => d.index === to).node()?.focus();
    });
  const center = (i: number) => ({ x: L.pos(i).x + CELL / 2, y: L.pos(i).y + CELL / 2 });
  gArrows
    .selectAll<SVGPathElement, { k: number; a: number; b: number }>('path.fl')
    .data(pairs.length <= 256 ? pairs : [], (p) => String(p.k))
    .join('path')
    .attr('class', 'fl')
    .attr('data-freelist-index', (p) => p.k)
    .attr('data-from', (p) => p.a + slab.obj0)
    .attr('data-to', (p) => p.b + slab.obj0)
    .attr('fill', 'none')
    .attr('stroke', GLYPHS.freelistArrow)
    .attr('stroke-width', 1.3)
    .attr('opacity', rest)
    .attr('data-hl', null)
    .attr('marker-end', 'url(#fl-arrow)')
    .attr('d', (p) => {
      const A = center(p.a);
      const B = center(p.b);
      const dx = B.x - A.x;
      const dy = B.y - A.y;
      const len = Math.max(1, Math.hypot(dx, dy));
      const sx = A.x + (dx / len) * 8;
      const sy = A.y + (dy / len) * 8;
      const ex = B.x - (dx / len) * 10;
      const ey = B.y - (dy / len) * 10;
      const mx = (sx + ex) / 2 - (dy / len) * 12;
      const my = (sy + ey) / 2 + (dx / len) * 12;
      return `M${sx},${sy} Q${mx},${my} ${ex},${ey}`;
    });
}
