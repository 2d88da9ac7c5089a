// The timeline strip: one column per bucket of ops (the engine's pre-pass
// samples of the summed SLUB_STATS, RunMeta.sampleOps / samples), as tall
// as the bucket is dense (counted events per op, relative to the densest
// bucket), and stacked by path so that alloc and free slow paths read
// apart (v7.0+fix1+fix2 frees on memoryless CPUs go to slabs while no
// allocation takes the slow path). Or one counter of the user's choice,
// per op. Plus the playhead.
import { root } from './common';

/** The path series of the strip, bottom up, with the counters each sums. */
export const TIMELINE_SERIES = [
  // v6.18+ classic caches with sheaves count a sheaf hit as alloc_cpu_sheaf / free_cpu_sheaf
  { id: 'alloc_fast', label: 'alloc fast path', color: '#2e8b57', stats: ['alloc_fastpath', 'alloc_cpu_sheaf'] },
  { id: 'free_fast', label: 'free fast path', color: '#9fd8a8', stats: ['free_fastpath', 'free_cpu_sheaf'] },
  { id: 'sheaf', label: 'sheaf refill/flush, barn', color: '#337ab7', stats: ['sheaf_refill', 'sheaf_flush', 'barn_get', 'barn_put'] },
  { id: 'alloc_slow', label: 'alloc slow path', color: '#c0392b', stats: ['alloc_slowpath'] },
  { id: 'free_slow', label: 'free slow path', color: '#f1c40f', stats: ['free_slowpath'] },
  { id: 'slab', label: 'new / discarded slab', color: '#8e44ad', stats: ['slabs_allocated', 'slabs_freed'] },
] as const;

export type SeriesId = (typeof TIMELINE_SERIES)[number]['id'];

/** The strip's mode: the path mix, or one counter. */
export type TimelineCounter = 'paths' | string;

export interface Bucket {
  op0: number;
  op1: number;
  /** counted events of the bucket per series (paths) or of the counter */
  parts: { id: string; value: number }[];
  total: number;
  /** total per op, relative to the densest bucket: 0..1 */
  density: number;
}

export interface Samples {
  sampleOps: number[];
  samples: Record<string, number[]>;
}

/** A bucket's counted events per op. */
export function perOp(b: Bucket): number {
  return b.total / Math.max(1, b.op1 - b.op0);
}

/** The strip's buckets from the pre-pass samples: deltas between samples. */
export function timelineBuckets(m: Samples, counter: TimelineCounter = 'paths'): Bucket[] {
  const d = (k: string, i: number) => (m.samples[k]?.[i + 1] ?? 0) - (m.samples[k]?.[i] ?? 0);
  const out: Bucket[] = [];
  for (let i = 0; i + 1 < m.sampleOps.length; i++) {
    const parts = counter === 'paths'
      ? TIMELINE_SERIES.map((s) => ({ id: s.id as string, value: s.stats.reduce((a, k) => a + Math.max(0, d(k, i)), 0) }))
      : [{ id: counter, value: Math.max(0, d(counter, i)) }];
    out.push({ op0: m.sampleOps[i], op1: m.sampleOps[i + 1], parts, total: parts.reduce((a, p) => a + p.value, 0), density: 0 });
  }
  const max = Math.max(0, ...out.map(perOp));
  for (const b of out) b.density = max > 0 ? perOp(b) / max : 0;
  return out;
}

/** The counters worth plotting: those that changed during the run. */
export function plottableCounters(m: Samples): string[] {
  return Object.entries(m.samples)
    .filter(([, v]) => v.length > 1 && v[v.length - 1] !== v[0])
    .map(([k]) => k)
    .sort();
}

const COUNTER_COLOR = '#34495e';
const color = new Map<string, string>(TIMELINE_SERIES.map((t) => [t.id, t.color]));

/** What the bars of each strip were last drawn from: while it is the same,
 * a step only moves the playhead (playing redraws every frame). */
const drawnFrom = new WeakMap<SVGSVGElement, { buckets: Bucket[]; total: number; width: number; height: number }>();

export function renderTimeline(svg: SVGSVGElement, buckets: Bucket[], opsTotal: number, opsDone: number, width: number, height = 22): void {
  const total = Math.max(1, opsTotal);
  const x = (op: number) => (op / total) * width;
  const s = root(svg);
  const last = drawnFrom.get(svg);
  if (!last || last.buckets !== buckets || last.total !== total || last.width !== width || last.height !== height) {
    drawBars(svg, buckets, x, width, height);
    drawnFrom.set(svg, { buckets, total, width, height });
  }
  s.selectAll('rect.head').data([0]).join('rect').attr('class', 'head').attr('x', Math.min(width - 2, x(opsDone)) - 1)
    .attr('width', 3).attr('y', 0).attr('height', height).attr('fill', '#000');
}

function drawBars(svg: SVGSVGElement, buckets: Bucket[], x: (op: number) => number, width: number, height: number): void {
  const s = root(svg).attr('viewBox', `0 0 ${width} ${height}`).attr('width', width).attr('height', height);
  const col = s.selectAll<SVGGElement, Bucket>('g.bk')
    .data(buckets, (b) => `${b.op0}`)
    .join('g')
    .attr('class', 'bk')
    .attr('data-op0', (b) => b.op0)
    .attr('data-op1', (b) => b.op1)
    .attr('data-total', (b) => b.total)
    .attr('data-density', (b) => b.density.toFixed(3));
  col.selectAll<SVGRectElement, { id: string; y: number; h: number; x: number; w: number }>('rect')
    .data((b) => {
      // stacked bottom up; a bucket with any event is at least 2 px tall
      const h = b.total > 0 ? Math.max(2, b.density * height) : 0;
      let y = height;
      return b.parts.filter((p) => p.value > 0).map((p) => {
        const ph = (h * p.value) / b.total;
        y -= ph;
        return { id: p.id, y, h: ph, x: x(b.op0), w: Math.max(1, x(b.op1) - x(b.op0)) };
      });
    }, (p) => p.id)
    .join('rect')
    .attr('data-series', (p) => p.id)
    .attr('x', (p) => p.x)
    .attr('width', (p) => p.w)
    .attr('y', (p) => p.y)
    .attr('height', (p) => Math.max(0.5, p.h))
    .attr('fill', (p) => color.get(p.id) ?? COUNTER_COLOR);
  // the playhead stays on top of bars drawn after it
  s.select<SVGRectElement>('rect.head').raise();
}
