// Topology: NUMA nodes with their CPUs; memoryless nodes marked (hatched,
// "no memory"); CPUs running an op marked busy. Click a CPU to focus it.
import type { SnapNode } from '../engine/types';
import { GLYPHS, anim, root, type VizInput, type VizOptions } from './common';
import { t as msg } from '../i18n';

const CPU_W = 22;
const CPU_H = 18;
const PER_ROW = 8;

export function topologyLayout(nodes: SnapNode[]) {
  const cols = nodes.length <= 2 ? nodes.length : 4;
  // wide enough for the memory line ("1024 MiB, 123 pages used")
  const nodeW = Math.max(150, 12 + Math.min(PER_ROW, Math.max(4, ...nodes.map((n) => n.cpus.length))) * (CPU_W + 3));
  const rows = (n: SnapNode) => Math.max(1, Math.ceil(n.cpus.length / PER_ROW));
  const maxRows = Math.max(1, ...nodes.map(rows));
  const nodeH = 40 + maxRows * (CPU_H + 3);
  return {
    cols,
    nodeW,
    nodeH,
    width: Math.max(1, cols) * (nodeW + 8),
    height: Math.ceil(nodes.length / Math.max(1, cols)) * (nodeH + 8),
    pos: (i: number) => ({ x: (i % cols) * (nodeW + 8), y: Math.floor(i / cols) * (nodeH + 8) }),
  };
}

export function renderTopology(svg: SVGSVGElement, { snap, event }: VizInput, opts: VizOptions): void {
  const nodes = snap.topology.nodes;
  const L = topologyLayout(nodes);
  const s = root(svg).attr('viewBox', `0 0 ${L.width} ${L.height}`).attr('width', L.width).attr('height', L.height)
    .style('max-width', `${L.width}px`);
  const busy = new Map(snap.cpus.map((c) => [c.cpu, c.op !== null]));

  const g = s
    .selectAll<SVGGElement, SnapNode>('g.node')
    .data(nodes, (d) => String(d.id))
    .join((enter) => {
      const e = enter.append('g').attr('class', 'node');
      e.append('rect').attr('class', 'node-box').attr('rx', 6);
      e.append('text').attr('class', 'node-label').attr('x', 8).attr('y', 16);
      e.append('text').attr('class', 'node-mem').attr('x', 8).attr('y', 30);
      return e;
    })
    .attr('transform', (_d, i) => `translate(${L.pos(i).x},${L.pos(i).y})`)
    .attr('data-node', (d) => d.id)
    .attr('data-memoryless', (d) => (d.has_memory ? 'false' : 'true'))
    .attr('data-focus', (d) => (opts.focusNode === d.id ? 'true' : 'false'));
  g.select('rect.node-box')
    .attr('width', L.nodeW)
    .attr('height', L.nodeH)
    .attr('fill', (d) => (d.has_memory ? GLYPHS.nodeMem : 'url(#hatch)'))
    .attr('stroke', (d) => (d.has_memory ? '#8aa' : GLYPHS.nodeNoMemStroke))
    .attr('stroke-dasharray', (d) => (d.has_memory ? null : '4 3'));
  g.select('text.node-label').text((d) => `node ${d.id}${opts.focusNode === d.id ? msg('viz.focused') : ''}`);
  g.select<SVGRectElement>('rect.node-box')
    .attr('stroke-width', (d) => (opts.focusNode === d.id ? 3 : 1))
    .on('click', (_e, d) => opts.onSelectNode?.(d.id));
  g.select('text.node-mem').text((d) =>
    d.has_memory ? msg('viz.nodeMem', { mib: Math.round((d.mem_pages * snap.config.page_size) / 2 ** 20), pages: d.used_pages }) : msg('viz.memoryless'),
  );

  // the hatch pattern for memoryless nodes
  if (s.select('defs').empty()) {
    const p = s.append('defs').append('pattern').attr('id', 'hatch').attr('width', 6).attr('height', 6)
      .attr('patternUnits', 'userSpaceOnUse').attr('patternTransform', 'rotate(45)');
    p.append('rect').attr('width', 6).attr('height', 6).attr('fill', '#fff4f4');
    p.append('line').attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 6).attr('stroke', '#f2caca').attr('stroke-width', 3);
  }
  s.select('defs').lower();

  const cpu = g
    .selectAll<SVGGElement, number>('g.cpu')
    .data((d) => d.cpus, (c) => String(c))
    .join((enter) => {
      const e = enter.append('g').attr('class', 'cpu').attr('role', 'button').attr('tabindex', 0);
      e.append('rect').attr('width', CPU_W).attr('height', CPU_H).attr('rx', 3);
      e.append('text').attr('x', CPU_W / 2).attr('y', 13.5).attr('text-anchor', 'middle').attr('font-size', 11);
      return e;
    })
    .attr('transform', (_c, i) => `translate(${8 + (i % PER_ROW) * (CPU_W + 3)},${38 + Math.floor(i / PER_ROW) * (CPU_H + 3)})`)
    .attr('data-cpu', (c) => c)
    .attr('data-busy', (c) => (busy.get(c) ? 'true' : 'false'))
    .attr('data-focus', (c) => (opts.focusCpu === c ? 'true' : 'false'))
    .attr('aria-label', (c) => `CPU ${c}${busy.get(c) ? ', running an op' : ''}${opts.focusCpu === c ? ', focused' : ''}`)
    .on('click', (_e, c) => opts.onSelectCpu?.(c))
    .on('keydown', (e: KeyboardEvent, c) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        e.stopPropagation();
        opts.onSelectCpu?.(c);
      }
    });
  anim(cpu.select('rect'), opts.animMs)
    .attr('fill', (c) => (event?.cpu === c ? GLYPHS.cpuStep : busy.get(c) ? GLYPHS.cpuBusy : GLYPHS.cpuIdle))
    .attr('stroke', (c) => (opts.focusCpu === c ? '#000' : '#667'))
    .attr('stroke-width', (c) => (opts.focusCpu === c ? 2.5 : 1));
  cpu.select('text').text((c) => String(c));
}
