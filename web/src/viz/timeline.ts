// Timeline markers: one band per bucket of ops, colored by the most
// notable path the bucket took (fast path, barn, refill, slow path, new
// slab, discard), plus the playhead.
import type { Marker } from '../engine/protocol';
import { PATH_COLORS, root } from './common';

export function renderTimeline(svg: SVGSVGElement, markers: Marker[], opsTotal: number, opsDone: number, width: number, height = 14): void {
  const total = Math.max(1, opsTotal);
  const x = (op: number) => (op / total) * width;
  const s = root(svg).attr('viewBox', `0 0 ${width} ${height}`).attr('width', width).attr('height', height);
  s.selectAll<SVGRectElement, Marker>('rect.mk')
    .data(markers, (m) => `${m.op0}`)
    .join('rect')
    .attr('class', 'mk')
    .attr('data-path', (m) => m.cls)
    .attr('data-op0', (m) => m.op0)
    .attr('x', (m) => x(m.op0))
    .attr('width', (m) => Math.max(1, x(m.op1) - x(m.op0)))
    .attr('y', 0)
    .attr('height', height)
    .attr('fill', (m) => PATH_COLORS[m.cls] ?? '#ccc');
  s.selectAll('rect.head').data([0]).join('rect').attr('class', 'head').attr('x', Math.min(width - 2, x(opsDone)) - 1)
    .attr('width', 3).attr('y', 0).attr('height', height).attr('fill', '#000');
}
