// Per-CPU sheaves (sheaves era): each CPU's main and spare sheaf as a stack
// of object cells against its capacity. With many CPUs the cells give way to
// a fill bar (the data attributes stay).
import type { SnapSheaf } from '../engine/types';
import { GLYPHS, anim, cacheOf, objectState, root, touched, type VizInput, type VizOptions } from './common';
import { t as msg } from '../i18n';

export interface SheafRow {
  cpu: number;
  node: number;
  main: SnapSheaf | null;
  spare: SnapSheaf | null;
}

export function sheafRows({ snap }: VizInput, cacheId: number): SheafRow[] {
  const cache = cacheOf(snap, cacheId);
  if (!cache?.cpus) return [];
  const byId = new Map(snap.sheaves.map((s) => [s.id, s]));
  return cache.cpus.map((c) => ({
    cpu: c.cpu,
    node: snap.cpus[c.cpu]?.node ?? 0,
    main: c.main === null ? null : byId.get(c.main) ?? null,
    spare: c.spare === null ? null : byId.get(c.spare) ?? null,
  }));
}

const ROW_H = 22;
const LABEL_W = 52;

export function renderSheaves(svg: SVGSVGElement, input: VizInput, opts: VizOptions): void {
  const cache = cacheOf(input.snap, opts.cache);
  const rows = (cache?.has_sheaves === false ? [] : sheafRows(input, opts.cache)).filter((r) => opts.focusNode === null || opts.focusNode === undefined || r.node === opts.focusNode);
  const cap = Math.max(1, cache?.sheaf_capacity ?? 1);
  const width = opts.width ?? 560;
  const TXT = 64;
  const half = (width - LABEL_W - 16 - 2 * TXT) / 2;
  const cells = rows.length * 2 * cap <= 1200;
  const cw = half / cap;
  const t = touched(input.event);
  const s = root(svg)
    .attr('viewBox', `0 0 ${width} ${Math.max(1, rows.length) * ROW_H + 18}`)
    .attr('width', width)
    .attr('height', Math.max(1, rows.length) * ROW_H + 18);

  let hdr = s.select<SVGGElement>('g.hdr');
  if (hdr.empty()) {
    hdr = s.append('g').attr('class', 'hdr');
    hdr.append('text').attr('class', 'h-main').attr('y', 12);
    hdr.append('text').attr('class', 'h-spare').attr('y', 12);
  }
  hdr.select('.h-main').attr('x', LABEL_W).text(rows.length ? msg('viz.mainCapacity', { cap }) : msg('viz.noSheaves'));
  hdr.select('.h-spare').attr('x', LABEL_W + half + TXT + 8).text(rows.length ? 'spare' : '');

  const row = s
    .selectAll<SVGGElement, SheafRow>('g.cpu-row')
    .data(rows, (d) => String(d.cpu))
    .join((enter) => {
      const e = enter.append('g').attr('class', 'cpu-row');
      e.append('text').attr('class', 'cpu-label').attr('y', 14).attr('font-size', 11);
      return e;
    })
    .attr('transform', (_d, i) => `translate(0,${18 + i * ROW_H})`)
    .attr('data-cpu', (d) => d.cpu)
    .attr('data-focus', (d) => (opts.focusCpu === d.cpu ? 'true' : 'false'));
  row.select('text.cpu-label').text((d) => `cpu ${d.cpu}`).attr('font-weight', (d) => (opts.focusCpu === d.cpu ? 'bold' : null));

  type Slot = { where: 'main' | 'spare'; cpu: number; sheaf: SnapSheaf | null };
  const sheaf = row
    .selectAll<SVGGElement, Slot>('g.sheaf')
    .data(
      (d) => [
        { where: 'main' as const, cpu: d.cpu, sheaf: d.main },
        { where: 'spare' as const, cpu: d.cpu, sheaf: d.spare },
      ],
      (d) => d.where,
    )
    .join((enter) => {
      const e = enter.append('g').attr('class', 'sheaf');
      e.append('rect').attr('class', 'cap').attr('height', ROW_H - 6).attr('rx', 2);
      e.append('rect').attr('class', 'fill').attr('height', ROW_H - 6).attr('rx', 2);
      e.append('text').attr('class', 'size').attr('y', 14).attr('font-size', 11);
      return e;
    })
    .attr('transform', (d) => `translate(${d.where === 'main' ? LABEL_W : LABEL_W + half + TXT + 8},0)`)
    .attr('data-where', (d) => d.where)
    .attr('data-sheaf-id', (d) => (d.sheaf ? d.sheaf.id : 'none'))
    .attr('data-size', (d) => d.sheaf?.size ?? 0)
    .attr('data-capacity', (d) => d.sheaf?.capacity ?? 0)
    .attr('data-touched', (d) => (d.sheaf && d.sheaf.id === t.sheaf ? 'true' : 'false'));
  sheaf
    .select('rect.cap')
    .attr('width', half)
    .attr('fill', (d) => (d.sheaf ? GLYPHS.sheafCap : GLYPHS.noSheaf))
    .attr('stroke', (d) => (d.sheaf && d.sheaf.id === t.sheaf ? GLYPHS.touched : '#aab'))
    .attr('stroke-width', (d) => (d.sheaf && d.sheaf.id === t.sheaf ? 2.5 : 1))
    .attr('stroke-dasharray', (d) => (d.sheaf ? null : '3 3'));
  anim(sheaf.select('rect.fill'), opts.animMs)
    .attr('width', (d) => (cells || !d.sheaf ? 0 : (half * d.sheaf.size) / Math.max(1, d.sheaf.capacity)))
    .attr('fill', GLYPHS.sheafFill);
  sheaf
    .select('text.size')
    .attr('x', half + 4)
    .attr('text-anchor', 'start')
    .text((d) => (d.sheaf ? `${d.sheaf.size}/${d.sheaf.capacity} #${d.sheaf.id}` : msg('goal.none')));

  const obj = sheaf
    .selectAll<SVGRectElement, number>('rect.obj')
    .data((d) => (cells && d.sheaf ? d.sheaf.objects : []), (o) => String(o))
    .join((enter) =>
      enter
        .append('rect')
        .attr('class', 'obj')
        .attr('height', ROW_H - 10)
        .attr('y', 2)
        .attr('x', (_o, i) => i * cw + 1),
    )
    .attr('data-object-id', (o) => o)
    .attr('data-object-state', 'sheaf')
    .attr('width', Math.max(1, cw - 1))
    .attr('fill', (o) => (o === t.obj ? GLYPHS.touched : objectState('s').color));
  anim(obj, opts.animMs).attr('x', (_o, i) => i * cw + 1);
}
