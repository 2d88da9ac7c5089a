// Sparklines of a counter over the run, with the current position marked.
import * as d3 from 'd3';
import { root } from './common';

export function sparkPath(values: number[], w: number, h: number): string {
  if (values.length === 0) return '';
  const max = Math.max(1, ...values);
  const x = d3.scaleLinear().domain([0, Math.max(1, values.length - 1)]).range([1, w - 1]);
  const y = d3.scaleLinear().domain([0, max]).range([h - 1, 1]);
  return d3.line<number>().x((_v, i) => x(i)).y((v) => y(v))(values) ?? '';
}

export function renderSparkline(svg: SVGSVGElement, values: number[], cursor: number, w = 90, h = 18): void {
  const s = root(svg).attr('viewBox', `0 0 ${w} ${h}`).attr('width', w).attr('height', h);
  s.selectAll('path.line').data([0]).join('path').attr('class', 'line').attr('fill', 'none').attr('stroke', '#337ab7')
    .attr('d', sparkPath(values, w, h));
  const cx = values.length > 1 ? 1 + ((w - 2) * cursor) / (values.length - 1) : 1;
  s.selectAll('line.cursor').data([0]).join('line').attr('class', 'cursor').attr('x1', cx).attr('x2', cx).attr('y1', 0).attr('y2', h)
    .attr('stroke', '#e67e22');
}
