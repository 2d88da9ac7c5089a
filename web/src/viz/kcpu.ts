// Per-CPU view of the classic era (v5.x .. v6.19): each CPU's struct
// kmem_cache_cpu for the cache: c->slab (the frozen cpu slab, inuse
// against objects), the lockless c->freelist chain in order, the c->partial
// chain of frozen slabs (head first, with head->slabs, the count the head
// keeps for the whole chain) and the transaction id c->tid. Click a slab
// for its detail.
import type { SnapSlab } from '../engine/types';
import { GLYPHS, anim, cacheOf, objectState, root, touched, type VizInput, type VizOptions } from './common';
import { t as msg } from '../i18n';

export interface KcpuRow {
  cpu: number;
  node: number;
  tid: number;
  slab: SnapSlab | null;
  /** c->slab id when the slab record is not in the snapshot */
  slabId: number | null;
  freelist: number[];
  partial: SnapSlab[];
}

/** Whether a cache's snapshot carries kmem_cache_cpu fields worth drawing. */
export function hasKcpu({ snap }: VizInput, cacheId: number): boolean {
  const cache = cacheOf(snap, cacheId);
  if (!cache?.cpus?.length) return false;
  if (snap.config.era === 'classic') return cache.cpus.some((c) => c.freelist !== undefined);
  return cache.cpus.some((c) => (c.freelist?.length ?? 0) > 0 || (c.slab ?? null) !== null || (c.partial?.length ?? 0) > 0);
}

export function kcpuRows({ snap }: VizInput, cacheId: number): KcpuRow[] {
  const cache = cacheOf(snap, cacheId);
  if (!cache?.cpus) return [];
  const byId = new Map(snap.slabs.map((s) => [s.id, s]));
  return cache.cpus.map((c) => ({
    cpu: c.cpu,
    node: snap.cpus[c.cpu]?.node ?? 0,
    tid: c.tid ?? 0,
    slab: c.slab === null || c.slab === undefined ? null : byId.get(c.slab) ?? null,
    slabId: c.slab ?? null,
    freelist: c.freelist ?? [],
    partial: (c.partial ?? []).map((id) => byId.get(id)).filter((x): x is SnapSlab => !!x),
  }));
}

const ROW_H = 58;
const LABEL_W = 56;
const SLAB_X = LABEL_W;
const SLAB_W = 92;
const CHAIN_X = SLAB_X + SLAB_W + 14;
const FL_W = 12;
const FL_STEP = 17;
const PS_W = 30;
const PS_STEP = 42;

export function renderKcpu(svg: SVGSVGElement, input: VizInput, opts: VizOptions): void {
  const rows = kcpuRows(input, opts.cache).filter((r) => opts.focusNode === null || opts.focusNode === undefined || r.node === opts.focusNode);
  const width = opts.width ?? 560;
  const maxFl = Math.max(4, Math.floor((width - CHAIN_X - 40) / FL_STEP));
  const maxPs = Math.max(2, Math.floor((width - CHAIN_X - 40) / PS_STEP));
  const t = touched(input.event);
  const height = Math.max(1, rows.length) * ROW_H + 4;
  const s = root(svg).attr('viewBox', `0 0 ${width} ${height}`).attr('width', width).attr('height', height);
  if (s.select('defs').empty()) {
    s.append('defs').append('marker').attr('id', 'kc-arrow').attr('viewBox', '0 0 10 10').attr('refX', 9).attr('refY', 5)
      .attr('markerWidth', 5).attr('markerHeight', 5).attr('orient', 'auto')
      .append('path').attr('d', 'M0,0 L10,5 L0,10 z').attr('fill', '#456');
  }

  const row = s
    .selectAll<SVGGElement, KcpuRow>('g.kcpu-row')
    .data(rows, (d) => String(d.cpu))
    .join((enter) => {
      const e = enter.append('g').attr('class', 'kcpu-row');
      e.append('text').attr('class', 'cpu-label').attr('y', 14).attr('font-size', 11);
      e.append('text').attr('class', 'tid').attr('y', 28).attr('font-size', 10).attr('fill', '#555');
      e.append('text').attr('class', 'fl-label').attr('x', CHAIN_X).attr('y', 9).attr('font-size', 9).attr('fill', '#555');
      e.append('text').attr('class', 'ps-label').attr('x', SLAB_X).attr('y', 45).attr('font-size', 9).attr('fill', '#555');
      e.append('text').attr('class', 'ps-head').attr('y', 45).attr('font-size', 9).attr('fill', '#555');
      e.append('g').attr('class', 'fl-chain');
      e.append('g').attr('class', 'ps-chain');
      const cs = e.append('g').attr('class', 'c-slab').attr('role', 'button').attr('tabindex', 0).attr('transform', `translate(${SLAB_X},2)`);
      cs.append('rect').attr('class', 'cap').attr('width', SLAB_W).attr('height', 26).attr('rx', 3);
      cs.append('rect').attr('class', 'fill').attr('height', 26).attr('rx', 3).attr('fill', '#9b59b6').attr('opacity', 0.35);
      cs.append('text').attr('class', 'name').attr('x', 4).attr('y', 11).attr('font-size', 10);
      cs.append('text').attr('class', 'use').attr('x', 4).attr('y', 23).attr('font-size', 9);
      cs.append('title');
      return e;
    })
    .attr('transform', (_d, i) => `translate(0,${2 + i * ROW_H})`)
    .attr('data-cpu', (d) => d.cpu)
    .attr('data-tid', (d) => d.tid)
    .attr('data-c-slab', (d) => (d.slabId === null ? 'none' : d.slabId))
    .attr('data-freelist-len', (d) => d.freelist.length)
    .attr('data-partial-len', (d) => d.partial.length)
    .attr('data-focus', (d) => (opts.focusCpu === d.cpu ? 'true' : 'false'));
  row.select('text.cpu-label').text((d) => `cpu ${d.cpu}`).attr('font-weight', (d) => (opts.focusCpu === d.cpu ? 'bold' : null));
  row.select('text.tid').text((d) => `tid ${d.tid}`);
  row.select('text.fl-label').text((d) => `c->freelist (${d.freelist.length})${d.freelist.length > maxFl ? msg('viz.first', { n: maxFl }) : ''}`);
  row.select('text.ps-label').text((d) => (d.partial.length ? `c->partial (${d.partial.length})` : msg('viz.cpuPartialEmpty')));
  row
    .select('text.ps-head')
    .attr('x', (d) => CHAIN_X + Math.min(d.partial.length, maxPs) * PS_STEP - 4)
    .text((d) => (d.partial.length ? `${d.partial.length > maxPs ? msg('viz.more', { n: d.partial.length - maxPs }) + ', ' : ''}head->slabs=${d.partial.length}` : ''));

  // c->slab
  const cs = row
    .select<SVGGElement>('g.c-slab')
    .attr('data-slab-id', (d) => (d.slabId === null ? 'none' : d.slabId))
    .attr('data-list', 'cpu_slab')
    .attr('data-inuse', (d) => d.slab?.inuse ?? 0)
    .attr('data-objects', (d) => d.slab?.objects ?? 0)
    .attr('data-selected', (d) => (d.slabId !== null && d.slabId === opts.selectedSlab ? 'true' : 'false'))
    .attr('aria-label', (d) => (d.slab ? `cpu ${d.cpu} c->slab: slab ${d.slab.slab}, ${d.slab.inuse} of ${d.slab.objects} in use` : `cpu ${d.cpu} c->slab: none`))
    .on('click', (_e, d) => {
      if (d.slabId !== null) opts.onSelectSlab?.(d.slabId);
    })
    .on('keydown', (e: KeyboardEvent, d) => {
      if ((e.key === 'Enter' || e.key === ' ') && d.slabId !== null) {
        e.preventDefault();
        e.stopPropagation();
        opts.onSelectSlab?.(d.slabId);
      }
    });
  cs.select('rect.cap')
    .attr('fill', (d) => (d.slab ? '#fff' : '#f2f2f2'))
    .attr('stroke', (d) => (d.slabId !== null && d.slabId === opts.selectedSlab ? '#000' : d.slabId !== null && d.slabId === t.slab ? GLYPHS.touched : '#667'))
    .attr('stroke-width', (d) => (d.slabId !== null && (d.slabId === opts.selectedSlab || d.slabId === t.slab) ? 2.5 : 1))
    .attr('stroke-dasharray', (d) => (d.slab ? null : '3 3'));
  anim(cs.select('rect.fill'), opts.animMs).attr('width', (d) => (d.slab ? (SLAB_W * d.slab.inuse) / Math.max(1, d.slab.objects) : 0));
  cs.select('text.name').text((d) => (d.slabId === null ? 'c->slab NULL' : `c->slab #${d.slabId}`));
  cs.select('text.use').text((d) => (d.slab ? `inuse ${d.slab.inuse}/${d.slab.objects}` : ''));
  cs.select('title').text((d) => (d.slab ? `slab ${d.slab.slab} (#${d.slab.id}), frozen, inuse ${d.slab.inuse}/${d.slab.objects}` : msg('goal.noCpuSlab')));

  // c->freelist: the lockless per-CPU freelist, in order
  type FlCell = { obj: number; pos: number; last: boolean };
  const fl = row
    .select<SVGGElement>('g.fl-chain')
    .attr('transform', `translate(${CHAIN_X},12)`)
    .selectAll<SVGGElement, FlCell>('g.c-fl')
    .data(
      (d) => d.freelist.slice(0, maxFl).map((obj, pos, a) => ({ obj, pos, last: pos === a.length - 1 })),
      (c) => String(c.obj),
    )
    .join((enter) => {
      const e = enter.append('g').attr('class', 'c-fl').attr('transform', (c) => `translate(${c.pos * FL_STEP},0)`);
      e.append('rect').attr('width', FL_W).attr('height', FL_W).attr('rx', 2);
      e.append('text').attr('x', FL_W / 2).attr('y', FL_W - 3).attr('text-anchor', 'middle').attr('font-size', 8).attr('font-weight', 'bold');
      e.append('line').attr('class', 'next').attr('y1', FL_W / 2).attr('y2', FL_W / 2).attr('stroke', '#456').attr('marker-end', 'url(#kc-arrow)');
      e.append('title');
      return e;
    })
    .attr('data-object-id', (c) => c.obj)
    .attr('data-object-state', objectState('p').name)
    .attr('data-chain-pos', (c) => c.pos)
    .attr('data-touched', (c) => (c.obj === t.obj ? 'true' : 'false'));
  anim(fl, opts.animMs).attr('transform', (c) => `translate(${c.pos * FL_STEP},0)`);
  fl.select('rect')
    .attr('fill', objectState('p').color)
    .attr('stroke', (c) => (c.obj === t.obj ? GLYPHS.touched : '#456'))
    .attr('stroke-width', (c) => (c.obj === t.obj ? 2.5 : 1));
  fl.select('text').text(objectState('p').label);
  fl.select('line.next')
    .attr('x1', FL_W)
    .attr('x2', FL_STEP - 1)
    .attr('display', (c) => (c.last ? 'none' : null));
  fl.select('title').text((c) => `object #${c.obj}, c->freelist position ${c.pos}`);

  // c->partial: frozen slabs, head first
  type Ps = { slab: SnapSlab; pos: number; n: number };
  const ps = row
    .select<SVGGElement>('g.ps-chain')
    .attr('transform', `translate(${CHAIN_X},32)`)
    .selectAll<SVGGElement, Ps>('g.c-partial')
    .data((d) => d.partial.slice(0, maxPs).map((slab, pos) => ({ slab, pos, n: d.partial.length })), (p) => String(p.slab.id))
    .join((enter) => {
      const e = enter.append('g').attr('class', 'c-partial').attr('role', 'button').attr('tabindex', 0)
        .attr('transform', (p) => `translate(${p.pos * PS_STEP},0)`);
      e.append('rect').attr('class', 'cap').attr('width', PS_W).attr('height', 20).attr('rx', 2).attr('fill', '#fff');
      e.append('rect').attr('class', 'fill').attr('height', 20).attr('rx', 2).attr('fill', '#9b59b6').attr('opacity', 0.4);
      e.append('text').attr('x', 3).attr('y', 13).attr('font-size', 9);
      e.append('line').attr('class', 'next').attr('y1', 10).attr('y2', 10).attr('stroke', '#456').attr('marker-end', 'url(#kc-arrow)');
      e.append('title');
      return e;
    })
    .attr('data-slab-id', (p) => p.slab.id)
    .attr('data-list', 'cpu_partial')
    .attr('data-partial-pos', (p) => p.pos)
    .attr('data-inuse', (p) => p.slab.inuse)
    .attr('data-objects', (p) => p.slab.objects)
    .attr('data-head-slabs', (p) => (p.pos === 0 ? p.n : null))
    .attr('data-selected', (p) => (p.slab.id === opts.selectedSlab ? 'true' : 'false'))
    .attr('aria-label', (p) => `c->partial ${p.pos}: slab ${p.slab.slab}, ${p.slab.inuse} of ${p.slab.objects} in use`)
    .on('click', (_e, p) => opts.onSelectSlab?.(p.slab.id))
    .on('keydown', (e: KeyboardEvent, p) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        e.stopPropagation();
        opts.onSelectSlab?.(p.slab.id);
      }
    });
  anim(ps, opts.animMs).attr('transform', (p) => `translate(${p.pos * PS_STEP},0)`);
  ps.select('rect.cap')
    .attr('stroke', (p) => (p.slab.id === opts.selectedSlab ? '#000' : p.slab.id === t.slab ? GLYPHS.touched : '#667'))
    .attr('stroke-width', (p) => (p.slab.id === opts.selectedSlab || p.slab.id === t.slab ? 2.5 : 1));
  anim(ps.select('rect.fill'), opts.animMs).attr('width', (p) => (PS_W * p.slab.inuse) / Math.max(1, p.slab.objects));
  ps.select('text').text((p) => `#${p.slab.id}`);
  ps.select('line.next')
    .attr('x1', PS_W)
    .attr('x2', PS_STEP - 1)
    .attr('display', (p) => (p.pos === p.n - 1 || p.pos === maxPs - 1 ? 'none' : null));
  ps.select('title').text((p) => `slab ${p.slab.slab} (#${p.slab.id}) inuse ${p.slab.inuse}/${p.slab.objects}${p.pos === 0 ? `; head->slabs = ${p.n}` : ''}`);
}
