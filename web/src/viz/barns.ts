// Barns (sheaves era): per node, the full and the empty sheaves against the
// limits (MAX_FULL_SHEAVES / MAX_EMPTY_SHEAVES = 10).
import type { SnapSheaf } from '../engine/types';
import { GLYPHS, anim, cacheOf, root, touched, type VizInput, type VizOptions } from './common';
import { t as msg } from '../i18n';

export const BARN_MAX_FULL = 10;
export const BARN_MAX_EMPTY = 10;

export interface BarnRow {
  node: number;
  barn: { id: number; lock: number; nr_full: number; nr_empty: number } | null;
  full: SnapSheaf[];
  empty: SnapSheaf[];
}

export function barnRows({ snap }: VizInput, cacheId: number): BarnRow[] {
  const cache = cacheOf(snap, cacheId);
  if (!cache?.nodes) return [];
  const byId = new Map(snap.sheaves.map((s) => [s.id, s]));
  const pick = (ids: number[]) => ids.map((i) => byId.get(i)).filter((x): x is SnapSheaf => !!x);
  return cache.nodes.map((n) => ({
    node: n.node,
    barn: n.barn,
    full: n.barn ? pick(n.barn.full) : [],
    empty: n.barn ? pick(n.barn.empty) : [],
  }));
}

const SH_W = 16;
const SH_H = 30;
const ROW_H = 50;

export function renderBarns(svg: SVGSVGElement, input: VizInput, opts: VizOptions): void {
  const rows = barnRows(input, opts.cache);
  const t = touched(input.event);
  const width = 80 + 2 * (BARN_MAX_FULL * (SH_W + 3) + 30);
  const height = Math.max(1, rows.length) * ROW_H + 4;
  const s = root(svg).attr('viewBox', `0 0 ${width} ${height}`).attr('width', width).attr('height', height);
  const row = s
    .selectAll<SVGGElement, BarnRow>('g.barn')
    .data(rows, (d) => String(d.node))
    .join((enter) => {
      const e = enter.append('g').attr('class', 'barn');
      e.append('text').attr('class', 'label').attr('y', 16).attr('font-size', 11);
      e.append('text').attr('class', 'lock').attr('y', 30).attr('font-size', 11);
      for (const k of ['full', 'empty'] as const) {
        const g = e.append('g').attr('class', `list-${k}`);
        g.append('text').attr('class', 'count').attr('y', 10).attr('font-size', 11);
        for (let i = 0; i < (k === 'full' ? BARN_MAX_FULL : BARN_MAX_EMPTY); i++)
          g.append('rect').attr('class', 'slot').attr('x', i * (SH_W + 3)).attr('y', 14).attr('width', SH_W)
            .attr('height', SH_H).attr('fill', 'none').attr('stroke', GLYPHS.barnSlot).attr('stroke-dasharray', '2 2');
      }
      return e;
    })
    .attr('transform', (_d, i) => `translate(0,${i * ROW_H})`)
    .attr('data-barn-node', (d) => d.node)
    .attr('data-nr-full', (d) => d.barn?.nr_full ?? 0)
    .attr('data-nr-empty', (d) => d.barn?.nr_empty ?? 0)
    .attr('data-has-barn', (d) => (d.barn ? 'true' : 'false'));
  row.select('text.label').text((d) => msg(d.barn ? 'viz.nodeBarn' : 'viz.nodeNoBarn', { node: d.node }));
  row.select('text.lock').text((d) => (d.barn && d.barn.lock >= 0 ? msg('viz.lockedBy', { cpu: d.barn.lock }) : ''));
  for (const k of ['full', 'empty'] as const) {
    const max = k === 'full' ? BARN_MAX_FULL : BARN_MAX_EMPTY;
    const x0 = k === 'full' ? 80 : 80 + BARN_MAX_FULL * (SH_W + 3) + 30;
    const g = row.select<SVGGElement>(`g.list-${k}`).attr('transform', `translate(${x0},0)`).attr('data-list', `barn_${k}`)
      .attr('display', (d) => (d.barn ? null : 'none'));
    g.select('text.count').text((d) => `${k} ${k === 'full' ? d.barn?.nr_full ?? 0 : d.barn?.nr_empty ?? 0}/${max}`);
    const sh = g
      .selectAll<SVGGElement, SnapSheaf>('g.sheaf')
      .data((d) => (k === 'full' ? d.full : d.empty), (x) => String(x.id))
      .join((enter) => {
        // entering sheaves start at their slot (one coming from a CPU flies
        // there as an event transition instead)
        const e = enter.append('g').attr('class', 'sheaf').attr('transform', (_x, i) => `translate(${i * (SH_W + 3)},14)`);
        e.append('rect').attr('class', 'cap').attr('width', SH_W).attr('height', SH_H).attr('fill', '#fff');
        e.append('rect').attr('class', 'fill').attr('width', SH_W).attr('fill', GLYPHS.sheafFill);
        return e;
      })
      .attr('data-sheaf-id', (x) => x.id)
      .attr('data-list', `barn_${k}`)
      .attr('data-size', (x) => x.size)
      .attr('data-touched', (x) => (x.id === t.sheaf ? 'true' : 'false'));
    anim(sh, opts.animMs).attr('transform', (_x, i) => `translate(${i * (SH_W + 3)},14)`);
    sh.select('rect.cap').attr('stroke', (x) => (x.id === t.sheaf ? GLYPHS.touched : '#446')).attr('stroke-width', (x) => (x.id === t.sheaf ? 2.5 : 1));
    sh.select('rect.fill')
      .attr('y', (x) => SH_H - (SH_H * x.size) / Math.max(1, x.capacity))
      .attr('height', (x) => (SH_H * x.size) / Math.max(1, x.capacity));
  }
}
