// Node partial lists (and full lists, kept for debug caches), slabs in list
// order, head first; each slab as a bar of inuse/objects. Slabs on no node
// list follow: the classic era's cpu slabs and cpu partial slabs (frozen),
// then the rest (being built, private). Click a slab to open it in the slab
// detail. With a call-site filter, slabs holding matching objects are
// marked (data-site-matches).
import type { SnapSlab } from '../engine/types';
import { ownerSites } from '../engine/wire';
import { GLYPHS, anim, cacheOf, root, siteMatches, touched, type VizInput, type VizOptions } from './common';
import { t as msg, type MsgKey } from '../i18n';

export interface SlabListRow {
  node: number;
  list: 'partial' | 'full' | 'cpu_slab' | 'cpu_partial' | 'other';
  slabs: SnapSlab[];
  more: number;
  listLock: number;
}

const MAX_DRAWN = 120;

export function slabListRows({ snap }: VizInput, cacheId: number): SlabListRow[] {
  const cache = cacheOf(snap, cacheId);
  if (!cache?.nodes) return [];
  const byId = new Map(snap.slabs.map((s) => [s.id, s]));
  const pick = (ids: number[]) => ids.slice(0, MAX_DRAWN).map((i) => byId.get(i)).filter((x): x is SnapSlab => !!x);
  const rows: SlabListRow[] = [];
  for (const n of cache.nodes) {
    rows.push({ node: n.node, list: 'partial', slabs: pick(n.partial), more: Math.max(0, n.partial.length - MAX_DRAWN), listLock: n.list_lock });
    if (n.full.length) rows.push({ node: n.node, list: 'full', slabs: pick(n.full), more: Math.max(0, n.full.length - MAX_DRAWN), listLock: n.list_lock });
  }
  const onLists = new Set(cache.nodes.flatMap((n) => [...n.partial, ...n.full]));
  const rest = snap.slabs.filter((s) => s.cache === cacheId && !onLists.has(s.id));
  for (const list of ['cpu_slab', 'cpu_partial', 'other'] as const) {
    const these = rest.filter((s) => (list === 'other' ? s.list !== 'cpu_slab' && s.list !== 'cpu_partial' : s.list === list));
    if (these.length) rows.push({ node: -1, list, slabs: these.slice(0, MAX_DRAWN), more: Math.max(0, these.length - MAX_DRAWN), listLock: -1 });
  }
  return rows;
}

const ROW_LABELS: Record<string, MsgKey> = {
  cpu_slab: 'viz.rowCpuSlab',
  cpu_partial: 'viz.rowCpuPartial',
  other: 'viz.rowOther',
};

/** Objects of a slab whose call site matches the filter. */
export function siteMatchCount(slab: SnapSlab, filter: string | undefined): number {
  let n = 0;
  for (const [site, count] of ownerSites(slab)) if (siteMatches(site, filter)) n += count;
  return n;
}

const SLAB_W = 14;
const SLAB_H = 30;
const ROW_H = 52;
const LABEL_W = 140;

/** The options of each drawing's last render, which its slabs' listeners
 * (bound once, when a slab enters: binding them again on every frame
 * costs more than the rest of a slab's update) call. */
const lastOpts = new WeakMap<SVGSVGElement, VizOptions>();

export function renderPartialLists(svg: SVGSVGElement, input: VizInput, opts: VizOptions): void {
  lastOpts.set(svg, opts);
  const select = (id: number) => lastOpts.get(svg)?.onSelectSlab?.(id);
  const rows = slabListRows(input, opts.cache);
  const t = touched(input.event);
  const perRow = Math.max(...rows.map((r) => r.slabs.length), 10);
  const width = Math.max(opts.width ?? 560, LABEL_W + perRow * (SLAB_W + 3) + 60);
  const height = Math.max(1, rows.length) * ROW_H;
  const s = root(svg).attr('viewBox', `0 0 ${width} ${height}`).attr('width', width).attr('height', height);
  const row = s
    .selectAll<SVGGElement, SlabListRow>('g.slab-list')
    .data(rows, (d) => `${d.node}-${d.list}`)
    .join((enter) => {
      const e = enter.append('g').attr('class', 'slab-list');
      e.append('text').attr('class', 'label').attr('y', 14).attr('font-size', 11);
      e.append('text').attr('class', 'sub').attr('y', 28).attr('font-size', 11);
      e.append('text').attr('class', 'more').attr('y', 28).attr('font-size', 11);
      // the list's lock on a line of its own: at 11 px "n slabs, locked by
      // cpu c" would not fit the label column
      e.append('text').attr('class', 'lock').attr('y', 42).attr('font-size', 11);
      return e;
    })
    .attr('transform', (_d, i) => `translate(0,${i * ROW_H})`)
    .attr('data-node', (d) => d.node)
    .attr('data-list', (d) => d.list)
    .attr('data-length', (d) => d.slabs.length + d.more);
  row.select('text.label').text((d) => (d.node < 0 ? msg(ROW_LABELS[d.list]) : `node ${d.node} ${d.list}`));
  row.select('text.sub').text((d) =>
    d.list === 'other' ? '' : msg('viz.slabs', { n: d.slabs.length + d.more }),
  );
  row.select('text.lock').text((d) => (d.list !== 'other' && d.listLock >= 0 ? msg('viz.lockedBy', { cpu: d.listLock }) : ''));
  row.select('text.more').attr('x', (d) => LABEL_W + d.slabs.length * (SLAB_W + 3) + 4).text((d) => (d.more ? msg('viz.more', { n: d.more }) : ''));

  const slab = row
    .selectAll<SVGGElement, SnapSlab>('g.slab')
    .data((d) => d.slabs, (x) => String(x.id))
    .join((enter) => {
      // entering slabs start at their place (a slab coming from another list
      // flies there as an event transition instead)
      const e = enter.append('g').attr('class', 'slab').attr('role', 'button').attr('tabindex', 0)
        .attr('transform', (_x, i) => `translate(${LABEL_W + i * (SLAB_W + 3)},4)`);
      e.append('rect').attr('class', 'cap').attr('width', SLAB_W).attr('height', SLAB_H).attr('fill', '#fff');
      e.append('rect').attr('class', 'fill').attr('width', SLAB_W);
      e.append('title');
      e.on('click', (_e, x) => select(x.id)).on('keydown', (ev: KeyboardEvent, x) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          ev.stopPropagation();
          select(x.id);
        }
      });
      return e;
    })
    .attr('data-slab-id', (x) => x.id)
    .attr('data-list', (x) => x.list)
    .attr('data-inuse', (x) => x.inuse)
    .attr('data-objects', (x) => x.objects)
    .attr('data-frozen', (x) => (x.frozen ? 'true' : 'false'))
    .attr('data-selected', (x) => (x.id === opts.selectedSlab ? 'true' : 'false'))
    .attr('data-site-matches', (x) => (opts.siteFilter ? siteMatchCount(x, opts.siteFilter) : null))
    .attr('aria-label', (x) => `slab ${x.slab}, ${x.inuse} of ${x.objects} in use`);
  anim(slab, opts.animMs).attr('transform', (_x, i) => `translate(${LABEL_W + i * (SLAB_W + 3)},4)`);
  slab
    .select('rect.cap')
    .attr('stroke', (x) => (x.id === opts.selectedSlab ? '#000' : x.id === t.slab ? GLYPHS.touched : '#667'))
    .attr('stroke-width', (x) => (x.id === opts.selectedSlab || x.id === t.slab ? 2.5 : 1))
    .attr('opacity', (x) => (opts.siteFilter && siteMatchCount(x, opts.siteFilter) === 0 ? 0.35 : null));
  anim(slab.select('rect.fill'), opts.animMs)
    .attr('y', (x) => SLAB_H - (SLAB_H * x.inuse) / Math.max(1, x.objects))
    .attr('height', (x) => (SLAB_H * x.inuse) / Math.max(1, x.objects))
    .attr('fill', (x) => (x.frozen ? GLYPHS.slabFrozen : GLYPHS.slabInuse));
  slab.select('title').text((x) => `slab ${x.slab} (#${x.id}) inuse ${x.inuse}/${x.objects}${x.frozen ? ' frozen' : ''}`);
}
