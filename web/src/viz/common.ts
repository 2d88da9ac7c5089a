// Shared pieces of the D3 render functions. Every render function is pure
// over (snapshot, current event, options): it only writes into the element
// it is given, and every drawn model element carries data-* attributes.
import * as d3 from 'd3';
// selection.transition() is added by d3-transition as a side effect; keep it
// in the bundle explicitly.
import 'd3-transition';
import type { Snapshot, SvzEvent } from '../engine/types';

export interface VizOptions {
  /** transition length; 0 = no transitions (tests) */
  animMs: number;
  /** the cache the views show */
  cache: number;
  focusCpu?: number | null;
  focusNode?: number | null;
  onSelectNode?: (node: number) => void;
  selectedSlab?: number | null;
  onSelectSlab?: (id: number) => void;
  onSelectCpu?: (cpu: number) => void;
  /** width available, px */
  width?: number;
  /** call-site filter ('' = none): matching objects/slabs are marked */
  siteFilter?: string;
}

export interface VizInput {
  snap: Snapshot;
  event: SvzEvent | null;
}

/** Object states of the snapshot's per-slab state string. */
export const OBJECT_STATES: Record<string, { name: string; label: string; color: string; desc: string }> = {
  f: { name: 'free', label: 'F', color: '#e8f0e0', desc: 'free, on the slab freelist' },
  u: { name: 'allocated', label: 'A', color: '#d9534f', desc: 'allocated to a caller' },
  s: { name: 'sheaf', label: 'S', color: '#5b8def', desc: 'in a per-CPU or barn sheaf' },
  b: { name: 'bulk', label: 'B', color: '#f0ad4e', desc: 'in flight in a bulk/caller array' },
  c: { name: 'chain', label: 'C', color: '#9b59b6', desc: 'on a detached freelist chain' },
  l: { name: 'lost', label: 'L', color: '#333333', desc: 'lost (leaked by a report)' },
  p: { name: 'cpu_freelist', label: 'P', color: '#7fc8c0', desc: "on a CPU's lockless c->freelist (classic era)" },
  r: { name: 'rcu', label: 'R', color: '#c9a227', desc: 'in a kfree_rcu batch, waiting for a grace period' },
};

/** Does a call site match the filter? Case-insensitive substring; '' matches all. */
export function siteMatches(site: string, filter: string | undefined): boolean {
  if (!filter) return true;
  return site.toLowerCase().includes(filter.toLowerCase());
}

export function objectState(ch: string): { name: string; label: string; color: string; desc: string } {
  return OBJECT_STATES[ch] ?? { name: 'unknown', label: '?', color: '#999', desc: 'unknown' };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySel = d3.Selection<any, any, any, any>;

type Value = unknown | ((this: Element, d: unknown, i: number, g: ArrayLike<Element>) => unknown);
const valueOf = (v: Value, el: Element, d: unknown, i: number, g: ArrayLike<Element>): unknown =>
  typeof v === 'function' ? (v as (this: Element, d: unknown, i: number, g: ArrayLike<Element>) => unknown).call(el, d, i, g) : v;

/* The renderers are pure over the snapshot: every frame they set every
 * attribute and text of every element they draw, and a step changes few of
 * them. Setting a value an element already has still makes Chromium
 * restyle, lay out and repaint it (most of a playing frame), so
 * selection.attr and selection.text (the setters; transitions are apart)
 * leave a value that is already there. */
const proto = d3.selection.prototype as unknown as {
  attr(this: AnySel, name: string, value?: Value): unknown;
  text(this: AnySel, value?: Value): unknown;
};
const attrGet = proto.attr;
const textGet = proto.text;
proto.attr = function (name, value) {
  if (arguments.length < 2) return attrGet.call(this, name);
  const ns = d3.namespace(name);
  return this.each(function (this: Element, d, i, g) {
    const v = valueOf(value, this, d, i, g);
    if (v == null) {
      if (typeof ns === 'string') this.removeAttribute(ns);
      else this.removeAttributeNS(ns.space, ns.local);
      return;
    }
    const s = String(v);
    if (typeof ns === 'string') {
      if (this.getAttribute(ns) !== s) this.setAttribute(ns, s);
    } else if (this.getAttributeNS(ns.space, ns.local) !== s) this.setAttributeNS(ns.space, ns.local, s);
  });
};
proto.text = function (value) {
  if (arguments.length === 0) return textGet.call(this);
  return this.each(function (this: Element, d, i, g) {
    const v = valueOf(value, this, d, i, g);
    const s = v == null ? '' : String(v);
    // an element with child elements is replaced by its text, as d3 does;
    // a lone text node is rewritten in place (no node made and dropped)
    const only = this.firstChild;
    if (only !== null && only.nodeType === 3 && only.nextSibling === null && s !== '') {
      if (only.nodeValue !== s) only.nodeValue = s;
    } else if (this.firstElementChild !== null || this.textContent !== s) this.textContent = s;
  });
};

/* The renderers bind their listeners (click, keydown, focus...) on every
 * element every frame, and d3 then removes and adds each browser listener
 * again. A plain event type ('click', no '.name', no options) gets one
 * browser listener per element, bound once, that calls the function given
 * last; null unbinds it as d3 does. */
type Listener = (this: Element, event: Event, d: unknown) => void;
const onProto = d3.selection.prototype as unknown as { on(this: AnySel, ...args: unknown[]): unknown };
const onOrig = onProto.on;
const listeners = new WeakMap<Element, Map<string, Listener>>();
function dispatch(this: Element, event: Event, d: unknown): void {
  listeners.get(this)?.get(event.type)?.call(this, event, d);
}
onProto.on = function (...args: unknown[]) {
  const [type, listener] = args;
  if (args.length !== 2 || typeof type !== 'string' || !/^[a-z]+$/.test(type)) return onOrig.apply(this, args);
  if (listener === null) {
    this.each(function (this: Element) {
      listeners.get(this)?.delete(type);
    });
    return onOrig.apply(this, args);
  }
  if (typeof listener !== 'function') return onOrig.apply(this, args);
  return this.each(function (this: Element) {
    let mine = listeners.get(this);
    if (!mine) listeners.set(this, (mine = new Map()));
    if (!mine.has(type)) onOrig.call(d3.select(this), type, dispatch);
    mine.set(type, listener as Listener);
  });
};

/** `sel` with a transition of `ms`, or `sel` itself when ms is 0 (same attr API). */
export function anim<S extends AnySel>(sel: S, ms: number): S {
  return (ms > 0 ? sel.transition().duration(ms) : sel) as unknown as S;
}

/** Clears an element of its children and returns it as a D3 selection. */
export function root<E extends Element>(el: E): d3.Selection<E, unknown, null, undefined> {
  return d3.select(el);
}

/** The sheaf, slab and object ids the event touches, for highlighting. */
export function touched(ev: SvzEvent | null): { sheaf?: number; slab?: number; obj?: number } {
  if (!ev) return {};
  return { sheaf: ev.sheaf, slab: ev.slab, obj: ev.obj };
}

export function cacheOf(snap: Snapshot, id: number) {
  return snap.caches.find((c) => c.id === id) ?? null;
}

/** Dumps the data-* attributes of every element under `el` that has one:
 * the drawn state, for tests that compare states. */
export function dataDump(el: Element): string[] {
  const out: string[] = [];
  el.querySelectorAll('*').forEach((n) => {
    const attrs = [...n.attributes].filter((a) => a.name.startsWith('data-')).map((a) => `${a.name}=${a.value}`);
    if (attrs.length) out.push(attrs.sort().join(' '));
  });
  return out;
}

/** The glyph colours the renderers draw with, by what they show (the legend draws the same). */
export const GLYPHS = {
  cpuIdle: '#fff',
  cpuBusy: '#ffe3b0',
  cpuStep: '#f0ad4e',
  nodeMem: '#f7f9fc',
  nodeNoMemStroke: '#c77',
  sheafCap: '#fafafa',
  sheafFill: '#5b8def',
  noSheaf: '#eee',
  touched: '#e67e22',
  barnSlot: '#ccd',
  slabInuse: '#d9534f',
  slabFrozen: '#9b59b6',
  freelistArrow: '#2a7a2a',
} as const;
