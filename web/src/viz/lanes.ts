// CPU lanes: the run across time, one lane per CPU, over a window of the
// last events (the frame's `lanes`, engine.ts). Under the timed schedule
// the x axis is simulated time (each event from its CPU's clock `t` for
// its price `cycles`, docs/events.md), else the step (seq). A segment is
// coloured by its kernel function; a lock wait (spin) is hatched and the
// lock's holder is marked on its own lane at the same time; the locks a
// CPU holds are bars under its lane; steps chosen by hand have a notch.
// Pure over (snapshot, events): the model (lanesModel) then the drawing.
import * as d3 from 'd3';
import type { Snapshot, SvzEvent } from '../engine/types';
import { root } from './common';

/** The renderer's words (the lanes view passes them: views/lanes/strings.ts). */
export interface LanesText {
  cpu: (cpu: number) => string;
  axis: { step: string; cycles: string };
  /** a lane's status at the current step */
  idle: string;
  op: (op: number) => string;
  spins: (lock: string, owner: number) => string;
  /** the short form beside the lane's name */
  spinsShort: (lock: string) => string;
  /** a spin's holder mark */
  holds: (cpu: number, lock: string, node: number) => string;
  hand: string;
  label: string;
}

export interface LanesOptions {
  width: number;
  focusCpu?: number | null;
  focusNode?: number | null;
  onSelectCpu?: (cpu: number) => void;
  text: LanesText;
  /** playing: the events' data-lane-* and tooltips are left until the
   * pause (renderLanes) */
  live?: boolean;
}

export interface LaneSeg {
  seq: number;
  cpu: number;
  op: number;
  fn: string;
  kind: string;
  /** x range, in the axis's unit */
  x0: number;
  x1: number;
  spin: boolean;
  trylock: boolean;
  lock?: string;
  /** spin / trylock_fail: the CPU holding the lock */
  holder?: number;
  node?: number;
  cache?: number;
  hand: boolean;
  text: string;
}

export interface LaneHold {
  cpu: number;
  lock: string;
  node: number;
  cache: number;
  x0: number;
  x1: number;
}

export interface LanesModel {
  axis: 'cycles' | 'step';
  cpus: number[];
  segs: LaneSeg[];
  holds: LaneHold[];
  x0: number;
  x1: number;
  /** the last event's seq (the current step), or -1 */
  current: number;
}

/** Colours of the kernel functions: a stable pick per name. */
export const FN_PALETTE = [
  '#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#edc948', '#76b7b2', '#ff9da7',
  '#9c755f', '#a0cbe8', '#ffbe7d', '#8cd17d', '#b6992d', '#499894', '#d37295', '#fabfd2',
  '#79706e', '#d4a6c8', '#86bcb6', '#d7b5a6',
] as const;

/** `work` ops (the rest of a request, not the allocator): neutral grey. */
export const WORK_COLOR = '#d0d0d0';

export function fnColor(fn: string): string {
  if (fn === 'work') return WORK_COLOR;
  let h = 2166136261;
  for (let i = 0; i < fn.length; i++) h = Math.imul(h ^ fn.charCodeAt(i), 16777619);
  return FN_PALETTE[(h >>> 0) % FN_PALETTE.length];
}

/** The glyphs of the lanes (the legend draws them alike). */
export const LANE_GLYPHS = {
  spinHatch: '#333',
  hold: '#222',
  /** held-lock bars by lock: n->list_lock, barn->lock, the per-CPU lock */
  holdBy: { list_lock: '#222', barn_lock: '#1a4f9c', cpu_sheaves_lock: '#999', cpu_slab_lock: '#999' } as Record<string, string>,
  holderMark: '#c0392b',
  hand: '#1f6feb',
  current: '#000',
  trylock: '#c0392b',
} as const;

const lockKey = (lock: string, cache: number, node: number) => `${lock}:${cache}:${node}`;

/** The lanes of a window of events (oldest first) at a snapshot: every
 * CPU (of `focusNode`), or with `busyOnly` those with an event in the
 * window, an op in flight or the focus. */
export function lanesModel(
  snap: Snapshot,
  events: readonly SvzEvent[],
  focusNode: number | null = null,
  busyOnly = false,
  focusCpu: number | null = null,
): LanesModel {
  const timed = events.length > 0 && events.every((e) => typeof e.t === 'number');
  const axis = timed ? 'cycles' : 'step';
  const seen = new Set(events.map((e) => e.cpu));
  const cpus = snap.cpus
    .filter((c) => focusNode === null || c.node === focusNode)
    .filter((c) => !busyOnly || seen.has(c.cpu) || c.op !== null || c.cpu === focusCpu)
    .map((c) => c.cpu);
  const segs: LaneSeg[] = events.map((e) => {
    const x0 = timed ? e.t! : e.seq;
    const x1 = timed ? e.t! + Math.max(0, e.cycles ?? 0) : e.seq + 1;
    return {
      seq: e.seq,
      cpu: e.cpu,
      op: e.op,
      fn: e.fn,
      kind: e.kind,
      x0,
      x1,
      spin: e.kind === 'spin',
      trylock: e.kind === 'trylock_fail',
      lock: e.lock,
      holder: e.kind === 'spin' || e.kind === 'trylock_fail' ? e.value : undefined,
      node: e.node,
      cache: e.cache,
      hand: !!e.hand,
      text: e.text,
    };
  });
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const s of segs) {
    x0 = Math.min(x0, s.x0);
    x1 = Math.max(x1, s.x1);
  }
  if (!segs.length) {
    x0 = 0;
    x1 = 1;
  }
  // holds: lock .. unlock per CPU; an unlock without its lock in the
  // window was taken before it; a lock still held at the end runs on
  const holds: LaneHold[] = [];
  const open = new Map<string, LaneHold>();
  for (const s of segs) {
    if (!s.lock || (s.kind !== 'lock' && s.kind !== 'unlock')) continue;
    const cache = s.cache ?? -1;
    const key = `${s.cpu}|${lockKey(s.lock, cache, s.node ?? -1)}`;
    if (s.kind === 'lock') {
      const h: LaneHold = { cpu: s.cpu, lock: s.lock, node: s.node ?? -1, cache, x0: s.x0, x1 };
      open.set(key, h);
      holds.push(h);
    } else {
      const h = open.get(key);
      if (h) {
        h.x1 = s.x1;
        open.delete(key);
      } else holds.push({ cpu: s.cpu, lock: s.lock, node: s.node ?? -1, cache, x0, x1: s.x1 });
    }
  }
  // locks the snapshot says are held that no event of the window took
  const held = (cpu: number, lock: string, cache: number, node: number) => {
    if (cpu < 0) return;
    if (!open.has(`${cpu}|${lockKey(lock, cache, node)}`)) holds.push({ cpu, lock, node, cache, x0, x1 });
  };
  const pcsLock = snap.config.era === 'classic' ? 'cpu_slab_lock' : 'cpu_sheaves_lock';
  for (const c of snap.caches) {
    for (const n of c.nodes ?? []) {
      held(n.list_lock, 'list_lock', c.id, n.node);
      if (n.barn) held(n.barn.lock, 'barn_lock', c.id, n.node);
    }
    for (const p of c.cpus ?? []) held(p.lock, pcsLock, c.id, -1);
  }
  return { axis, cpus, segs, holds, x0, x1, current: events.length ? events[events.length - 1].seq : -1 };
}

const LABEL_W = 170;
const AXIS_H = 22;

/** Lane height for n lanes: roomy for a few CPUs, compact for many. */
export function laneHeight(n: number): number {
  return n <= 8 ? 26 : n <= 24 ? 18 : 12;
}

/** A lane's status line at the current step (from the snapshot). */
function status(snap: Snapshot, cpu: number, t: LanesText): string {
  const c = snap.cpus.find((x) => x.cpu === cpu);
  if (!c) return '';
  if (c.lock_wait) return t.spins(c.lock_wait.lock, c.lock_wait.owner);
  return c.op === null ? t.idle : t.op(c.op);
}

function shortStatus(snap: Snapshot, cpu: number, t: LanesText): string {
  const c = snap.cpus.find((x) => x.cpu === cpu);
  if (c?.lock_wait) return t.spinsShort(c.lock_wait.lock);
  return status(snap, cpu, t);
}

/** A fresh window's key: the glyphs drawn take the new data in order
 * (every attribute is set, so the drawing is the same as with new glyphs). */
const byIndex = (_d: unknown, i: number) => String(i);

/** Where an svg's glyphs on the x axis are drawn from (see renderLanes). */
const slides = new WeakMap<SVGSVGElement, { origin: number; k: number }>();

export function renderLanes(svg: SVGSVGElement, snap: Snapshot, m: LanesModel, opts: LanesOptions): void {
  const t = opts.text;
  const H = laneHeight(m.cpus.length);
  const width = Math.max(LABEL_W + 100, opts.width);
  const height = m.cpus.length * H + AXIS_H + 4;
  const x = d3.scaleLinear().domain([m.x0, Math.max(m.x1, m.x0 + 1)]).range([LABEL_W, width - 8]);
  const laneOf = new Map(m.cpus.map((c, i) => [c, i]));
  const segs = m.segs.filter((g) => laneOf.has(g.cpu));
  const wasDrawn = new Set(d3.select(svg).selectAll<SVGGElement, LaneSeg>('g.layer-segs > g.lane-seg').data().map((g) => g.seq));
  // a window of new steps only (playing fast): see the events below
  const fresh = !segs.some((g) => wasDrawn.has(g.seq));
  // The glyphs along x (holds, events, marks) are drawn against an origin
  // kept while the scale's px per unit stays, and their layers slid into
  // place by one transform: playing moves the window by a step or a few,
  // which then rewrites four transforms, not every glyph's x (the same
  // picture). A window of new steps starts from its own origin: the glyphs
  // it takes over in order then mostly keep their x.
  const k = (width - 8 - LABEL_W) / (Math.max(m.x1, m.x0 + 1) - m.x0);
  let slide = slides.get(svg);
  if (slide?.k !== k || fresh) slides.set(svg, (slide = { origin: m.x0, k }));
  const origin = slide.origin;
  const ux = (v: number) => (v - origin) * k;
  const slid = `translate(${LABEL_W + (origin - m.x0) * k},0)`;
  const y = (cpu: number) => (laneOf.get(cpu) ?? 0) * H;
  const s = root(svg)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('width', width)
    .attr('height', height)
    .attr('data-lanes-axis', m.axis)
    .attr('data-lanes-x0', m.x0)
    .attr('data-lanes-x1', m.x1)
    .attr('data-lanes-events', m.segs.length)
    .attr('data-lanes-shown', m.cpus.length);

  if (s.select('defs').empty()) {
    const p = s.append('defs').append('pattern').attr('id', 'lane-spin').attr('width', 5).attr('height', 5)
      .attr('patternUnits', 'userSpaceOnUse').attr('patternTransform', 'rotate(45)');
    p.append('rect').attr('width', 5).attr('height', 5).attr('fill', '#fff');
    p.append('line').attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 5).attr('stroke', LANE_GLYPHS.spinHatch).attr('stroke-width', 2);
  }

  // one layer per kind of glyph, in drawing order; each layer's children
  // in data order (.order()), so the drawn state does not depend on the
  // path that led to it
  const layer = (name: string) => s.selectAll<SVGGElement, string>(`g.layer-${name}`).data([name]).join('g').attr('class', `layer-${name}`);
  const L = { lanes: layer('lanes'), holds: layer('holds'), segs: layer('segs'), hand: layer('hand'), holders: layer('holders'), axis: layer('axis') };
  for (const g of [L.holds, L.segs, L.hand, L.holders]) g.attr('transform', slid);

  // the lanes: label, status, background
  const lane = L.lanes
    .selectAll<SVGGElement, number>('g.lane')
    .data(m.cpus, (c) => String(c))
    .join((enter) => {
      const e = enter.append('g').attr('class', 'lane');
      e.append('rect').attr('class', 'lane-bg');
      e.append('text').attr('class', 'lane-label').attr('x', 4);
      e.append('text').attr('class', 'lane-status').append('title');
      return e;
    })
    .order()
    .attr('transform', (c) => `translate(0,${y(c)})`)
    .attr('data-lane-cpu', (c) => c)
    .attr('data-lane-status', (c) => status(snap, c, t))
    .attr('data-lane-focus', (c) => (opts.focusCpu === c ? 'true' : 'false'));
  lane.select('rect.lane-bg')
    .attr('x', 0)
    .attr('width', width)
    .attr('height', H - 1)
    .attr('fill', (c) => (opts.focusCpu === c ? '#fff6e0' : laneOf.get(c)! % 2 ? '#f7f8fa' : '#fff'))
    .on('click', (_e, c) => opts.onSelectCpu?.(c));
  // 11 px at least, whatever the lane height (a 12 px lane still holds
  // capitals and digits: y is their baseline, centred)
  const fs = 11;
  lane.select('text.lane-label').attr('y', H / 2 + 4).attr('font-size', fs).attr('font-weight', (c) => (opts.focusCpu === c ? 'bold' : null))
    .text((c) => t.cpu(c));
  const st = lane.select('text.lane-status').attr('x', 50).attr('y', H / 2 + 4).attr('font-size', fs).attr('fill', '#555');
  st.each(function (c) {
    // the text node first, then the full status as its title; rewritten
    // only when they change (each lane every frame while playing)
    const el = this as SVGTextElement;
    const short = shortStatus(snap, c, t);
    const full = status(snap, c, t);
    const title = el.querySelector('title');
    const text = el.firstChild;
    if (title && text !== title && text?.nodeType === Node.TEXT_NODE && text.nextSibling === title && !title.nextSibling) {
      if (text.nodeValue !== short) text.nodeValue = short;
      if (title.textContent !== full) title.textContent = full;
      return;
    }
    el.textContent = short;
    const tt = title ?? document.createElementNS('http://www.w3.org/2000/svg', 'title');
    tt.textContent = full;
    el.appendChild(tt);
  });

  // held locks: bars along the bottom of the holder's lane (a fresh
  // window takes over the drawn bars in order, as the events below)
  const holds = m.holds.filter((h) => laneOf.has(h.cpu));
  L.holds.selectAll<SVGRectElement, LaneHold>('rect.lane-hold')
    .data(holds, fresh ? byIndex : (h) => `${h.cpu}|${h.lock}|${h.cache}|${h.node}|${h.x0}`)
    .join('rect')
    .order()
    .attr('class', 'lane-hold')
    .attr('x', (h) => ux(h.x0))
    .attr('width', (h) => Math.max(2, ux(h.x1) - ux(h.x0)))
    .attr('y', (h) => y(h.cpu) + H - 4 - (h.lock === 'barn_lock' ? 2 : 0))
    .attr('height', (h) => (h.lock === 'list_lock' || h.lock === 'barn_lock' ? 3 : 2))
    .attr('fill', (h) => LANE_GLYPHS.holdBy[h.lock] ?? LANE_GLYPHS.hold)
    .attr('data-lane-hold', (h) => h.lock)
    .attr('data-lane-hold-cpu', (h) => h.cpu)
    .attr('data-lane-hold-node', (h) => h.node)
    .attr('data-lane-hold-cache', (h) => h.cache)
    .selectAll('title')
    .data((h) => [h])
    .join('title')
    .text((h) => t.holds(h.cpu, h.lock, h.node));

  // the events
  // keyed by step while the window slides over steps already drawn; a
  // window of new steps only (playing fast) takes over the drawn glyphs in
  // order instead of removing and creating them all (every attribute is set
  // below, so the glyphs are the same either way)
  const seg = L.segs.selectAll<SVGGElement, LaneSeg>('g.lane-seg')
    .data(segs, fresh ? byIndex : (g) => String(g.seq))
    .join((enter) => {
      const e = enter.append('g').attr('class', 'lane-seg');
      e.append('rect').attr('class', 'seg-fill');
      e.append('title');
      return e;
    })
    .order();
  // Playing fast, every frame is a window of new steps and these were most
  // of what it wrote (a dozen attributes and a tooltip per event, none of
  // them drawn). While playing they are left as they are, the svg says so
  // (data-lanes-live), and the pause writes them all.
  s.attr('data-lanes-live', opts.live ? '1' : null);
  if (!opts.live)
    seg
      .attr('data-lane-seq', (g) => g.seq)
      .attr('data-lane-cpu', (g) => g.cpu)
      .attr('data-lane-op', (g) => g.op)
      .attr('data-lane-fn', (g) => g.fn)
      .attr('data-lane-kind', (g) => g.kind)
      .attr('data-lane-spin', (g) => (g.spin ? '1' : '0'))
      .attr('data-lane-holder', (g) => (g.holder === undefined ? null : g.holder))
      .attr('data-lane-hand', (g) => (g.hand ? '1' : '0'))
      .attr('data-lane-current', (g) => (g.seq === m.current ? '1' : '0'))
      .attr('data-lane-x0', (g) => g.x0)
      .attr('data-lane-x1', (g) => g.x1);
  const sx = (g: LaneSeg) => ux(g.x0);
  const sw = (g: LaneSeg) => Math.max(1, ux(g.x1) - ux(g.x0));
  seg.select('rect.seg-fill')
    .attr('x', sx)
    .attr('width', sw)
    .attr('y', (g) => y(g.cpu) + 2)
    .attr('height', H - 7)
    .attr('fill', (g) => fnColor(g.fn))
    .attr('stroke', (g) => (g.seq === m.current ? LANE_GLYPHS.current : g.trylock ? LANE_GLYPHS.trylock : 'none'))
    .attr('stroke-width', (g) => (g.seq === m.current ? 1.5 : 1))
    .attr('stroke-dasharray', (g) => (g.trylock ? '2 1' : null));
  // the hatch over a spin: spins only (a glyph per event was most of the
  // elements the page restyled while playing), between fill and title
  seg.selectAll<SVGRectElement, LaneSeg>('rect.seg-spin')
    .data((g) => (g.spin ? [g] : []))
    .join((enter) => enter.insert('rect', 'title').attr('class', 'seg-spin'))
    .attr('x', sx)
    .attr('width', sw)
    .attr('y', (g) => y(g.cpu) + 2)
    .attr('height', H - 7)
    .attr('fill', 'url(#lane-spin)')
    .attr('opacity', 0.6);
  if (!opts.live) seg.select('title').text((g) => (g.hand ? `${g.text} (${t.hand})` : g.text));

  // steps chosen by hand: a notch above the segment
  L.hand.selectAll<SVGPathElement, LaneSeg>('path.lane-hand')
    .data(segs.filter((g) => g.hand), (g) => String(g.seq))
    .join('path')
    .order()
    .attr('class', 'lane-hand')
    .attr('d', (g) => {
      const cx = sx(g) + sw(g) / 2;
      const top = y(g.cpu) + 1;
      return `M${cx - 3},${top} L${cx + 3},${top} L${cx},${top + 4} Z`;
    })
    .attr('fill', LANE_GLYPHS.hand)
    .attr('data-lane-hand-seq', (g) => g.seq);

  // a spin's holder: a mark on the holder's lane over the same time
  const marks = segs.filter((g) => (g.spin || g.trylock) && g.holder !== undefined && g.holder >= 0 && laneOf.has(g.holder));
  L.holders.selectAll<SVGPathElement, LaneSeg>('path.lane-holder')
    .data(marks, (g) => String(g.seq))
    .join((enter) => {
      const e = enter.append('path').attr('class', 'lane-holder');
      e.append('title');
      return e;
    })
    .order()
    .attr('d', (g) => {
      const cx = sx(g) + sw(g) / 2;
      const cy = y(g.holder!) + H / 2 - 1;
      const r = Math.max(2.5, Math.min(5, H / 4));
      return `M${cx},${cy - r} L${cx + r},${cy} L${cx},${cy + r} L${cx - r},${cy} Z`;
    })
    .attr('fill', LANE_GLYPHS.holderMark)
    .attr('stroke', '#fff')
    .attr('data-lane-holder-cpu', (g) => g.holder!)
    .attr('data-lane-holder-for', (g) => g.seq)
    .attr('data-lane-holder-lock', (g) => g.lock ?? '')
    .select('title')
    .text((g) => t.holds(g.holder!, g.lock ?? '', g.node ?? -1));

  // the axis
  const ticks = x.ticks(Math.max(2, Math.floor((width - LABEL_W) / 90))).filter((v) => m.axis === 'cycles' || Number.isInteger(v));
  const ax = L.axis.attr('transform', `translate(0,${m.cpus.length * H + 2})`);
  ax.selectAll<SVGTextElement, number>('text.tick')
    .data(ticks, fresh ? byIndex : String)
    .join('text')
    .order()
    .attr('class', 'tick')
    .attr('x', (v) => x(v))
    .attr('y', 13)
    .attr('font-size', 11)
    .attr('text-anchor', 'middle')
    .text((v) => d3.format(m.axis === 'cycles' ? '~s' : 'd')(v));
  ax.selectAll<SVGLineElement, number>('line.tick')
    .data(ticks, fresh ? byIndex : String)
    .join('line')
    .order()
    .attr('class', 'tick')
    .attr('x1', (v) => x(v))
    .attr('x2', (v) => x(v))
    .attr('y1', 0)
    .attr('y2', 3)
    .attr('stroke', '#888');
  ax.selectAll<SVGTextElement, string>('text.axis-name')
    .data([m.axis === 'cycles' ? t.axis.cycles : t.axis.step])
    .join('text')
    .attr('class', 'axis-name')
    .attr('x', 4)
    .attr('y', 13)
    .attr('font-size', 11)
    .text((v) => v);
}

/** The kernel functions of a window, most frequent first (the lanes key). */
export function windowFunctions(m: LanesModel): { fn: string; n: number; color: string }[] {
  const n = new Map<string, number>();
  for (const s of m.segs) n.set(s.fn, (n.get(s.fn) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([fn, k]) => ({ fn, n: k, color: fnColor(fn) }));
}
