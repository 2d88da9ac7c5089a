// Event-driven transitions: when one step forward moves a sheaf, an object
// or a slab from one container to another (the event's `from` -> `to`:
// main/spare -> barn, slab freelist -> sheaf, sheaf -> user, partial list ->
// cpu slab ...), a ghost of it flies from where it was drawn to where it is
// drawn now, across panels. The positions come from the data-* attributes
// (data-sheaf-id, data-object-id, data-slab-id): measured before the panels
// redraw (layout effect) and after (this component's effect runs after the
// panels' D3 effects: it comes last in <App>; playing fast, after the late
// panels have drawn too: lateDraws.afterDrawn). A thing not drawn on its own
// at one end (60 objects into a sheaf bar, a sheaf into a barn's count)
// flies from or to its container (`at`). While playing slowly each step
// flies (shorter, to fit the step); playing fast (FAST_PLAY_SPEED) a batch
// of steps flies as one summary every BATCH_EVERY_MS: the sheaves and slabs
// whose container changed since the last batch, from their old place to
// where they are (at most BATCH_MAX, the rest counted in the log). No
// ghosts with animations off (?anim=0, prefers-reduced-motion, the tests'
// default) or on seeks and steps back.
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { Snapshot, SvzEvent } from '../engine/types';
import { lateDraws, playingFast, useAppState } from './hooks';

export interface Flight {
  kind: 'sheaf' | 'object' | 'slab';
  id: number;
  from: string;
  to: string;
  /** where each end's container is drawn, when the thing itself is not */
  at?: { from: string | null; to: string | null };
}

/** Where a sheaf's place is drawn: the CPU's main or spare slot, the
 * node's barn list (`id`: the CPU for main/spare, the node for a barn). */
function sheafPlace(where: string, id: number): string | null {
  switch (where) {
    case 'main':
    case 'spare':
      return `[data-panel=sheaves] g.cpu-row[data-cpu="${id}"] g.sheaf[data-where=${where}]`;
    case 'barn_full':
    case 'barn_empty':
      return `[data-panel=barns] [data-barn-node="${id}"] [data-list=${where}]`;
  }
  return null;
}

/** Where a node's slab list is drawn. */
const slabList = (node: number, list: string) => `[data-panel=partial] g.slab-list[data-node="${node}"][data-list=${list}]`;

/** The selector of the container a location means for an event: the CPU's
 * main or spare sheaf, the event's sheaf, the node's barn list, the slab. */
export function containerOf(loc: string, ev: SvzEvent, snap?: Snapshot | null): string | null {
  const node = ev.node ?? snap?.cpus[ev.cpu]?.node ?? 0;
  switch (loc) {
    case 'main':
    case 'spare':
      return sheafPlace(loc, ev.cpu);
    case 'none':
      // in the hands of the CPU running the step (taken off main, not yet put anywhere)
      return `[data-panel=sheaves] g.cpu-row[data-cpu="${ev.cpu}"]`;
    case 'sheaf':
      return ev.sheaf === undefined ? null : `[data-sheaf-id="${ev.sheaf}"]`;
    case 'barn_full':
    case 'barn_empty':
      return sheafPlace(loc, node);
    case 'freelist':
    case 'chain':
      // the slab, else (a new slab on no list yet) the node's slab lists
      return ev.slab === undefined
        ? null
        : `[data-panel=partial] [data-slab-id="${ev.slab}"], [data-panel=slab] svg[data-slab-id="${ev.slab}"], [data-panel=partial] g.slab-list[data-node="${node}"]`;
    case 'partial':
      return slabList(node, 'partial');
    case 'cpu_slab':
    case 'cpu_partial':
    case 'cpu_freelist':
      return `[data-panel=sheaves] [data-cpu="${ev.cpu}"]`;
  }
  return null;
}

/** The flights an event asks for. */
export function flightsOf(ev: SvzEvent | null, snap?: Snapshot | null): Flight[] {
  if (!ev || !ev.from || !ev.to || ev.from === ev.to) return [];
  const f = ev.from;
  const t = ev.to;
  const at = { from: containerOf(f, ev, snap), to: containerOf(t, ev, snap) };
  switch (ev.kind) {
    case 'move_sheaf':
      return ev.sheaf === undefined ? [] : [{ kind: 'sheaf', id: ev.sheaf, from: f, to: t, at }];
    case 'take_object':
    case 'put_object':
      // a batch without its last object named: from container to container
      return [{ kind: 'object', id: ev.obj ?? -1, from: f, to: t, at }];
    case 'move_slab':
      return ev.slab === undefined ? [] : [{ kind: 'slab', id: ev.slab, from: f, to: t, at }];
  }
  return [];
}

/** Most flights a batch of steps (playing fast) shows. */
export const BATCH_MAX = 12;

/** A batch of steps as flights: the sheaves of the cache shown that
 * changed place (main, spare, a barn list) and its slabs that changed list
 * between two snapshots, at most `max` of them (and how many were left
 * out). Each end names where its place is drawn (`at`): by the time a
 * batch flies the thing has long left the place it flies from. */
export function batchFlights(a: Snapshot, b: Snapshot, cache: number | null, max = BATCH_MAX): { flights: Flight[]; more: number } {
  const out: Flight[] = [];
  const was = new Map(a.sheaves.map((s) => [s.id, s]));
  for (const s of b.sheaves) {
    const o = was.get(s.id);
    if (o && s.cache === cache && o.cache === s.cache && (o.where !== s.where || o.where_id !== s.where_id))
      out.push({ kind: 'sheaf', id: s.id, from: o.where, to: s.where, at: { from: sheafPlace(o.where, o.where_id), to: sheafPlace(s.where, s.where_id) } });
  }
  const slabs = new Map(a.slabs.map((s) => [s.id, s]));
  for (const s of b.slabs) {
    const o = slabs.get(s.id);
    if (o && s.cache === cache && o.cache === s.cache && o.list !== s.list)
      out.push({ kind: 'slab', id: s.id, from: o.list, to: s.list, at: { from: slabList(o.node, o.list), to: slabList(s.node, s.list) } });
  }
  return { flights: out.slice(0, max), more: Math.max(0, out.length - max) };
}

/** Panels where a location is drawn, in order of preference. */
const PANELS: Record<string, string[]> = {
  main: ['sheaves'],
  spare: ['sheaves'],
  sheaf: ['sheaves', 'barns'],
  barn_full: ['barns'],
  barn_empty: ['barns'],
  partial: ['partial', 'sheaves', 'slab'],
  private: ['partial'],
  freelist: ['slab', 'sheaves'],
  cpu_freelist: ['sheaves', 'slab'],
  cpu_slab: ['sheaves', 'partial'],
  cpu_partial: ['sheaves', 'partial'],
  chain: ['slab'],
  user: ['slab'],
  bulk: ['slab'],
};

const ATTR = { sheaf: 'data-sheaf-id', object: 'data-object-id', slab: 'data-slab-id' } as const;

const drawn = (el: Element) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};

/** Where a sheaf/object/slab is drawn for a location (its end `end` of the
 * flight): the thing itself in the location's own panel, else its
 * container there (`at`), else the thing in another panel; or null.
 * `placeFirst`: the container first (a batch's start: the thing is drawn
 * where it is now, not where the batch began). The A/B view's copies of
 * the panels are not looked at. */
export function locate(fl: Flight, loc: string, doc: Document = document, end: 'from' | 'to' = loc === fl.to ? 'to' : 'from', placeFirst = false): Element | null {
  const sel = `[${ATTR[fl.kind]}="${fl.id}"]`;
  const byId = (p: string) => {
    for (const el of doc.querySelectorAll(`main [data-panel=${p}] ${sel}`)) {
      // the slab detail's <svg> carries data-slab-id too: take drawn things only
      if (el.tagName.toLowerCase() !== 'svg' && drawn(el)) return el;
    }
    return null;
  };
  const container = () => {
    const at = fl.at?.[end];
    if (at) for (const el of doc.querySelectorAll(at.split(', ').map((x) => `main ${x}`).join(', '))) if (drawn(el)) return el;
    return null;
  };
  const [own, ...others] = PANELS[loc] ?? ['sheaves', 'barns', 'partial', 'slab'];
  const first = placeFirst ? container() ?? byId(own) : byId(own) ?? container();
  return first ?? others.reduce<Element | null>((hit, p) => hit ?? byId(p), null);
}

/** Things React draws (not D3): by the time the layout effect runs they
 * are already gone from the old place, so their last rects are kept. */
const REACT_DRAWN = 'main .other-sheaves [data-sheaf-id]';

function reactRects(doc: Document = document): Map<string, DOMRect> {
  const m = new Map<string, DOMRect>();
  for (const el of doc.querySelectorAll(REACT_DRAWN)) m.set(`sheaf ${el.getAttribute('data-sheaf-id')}`, el.getBoundingClientRect());
  return m;
}

/** Recent flights (newest last), for tests. */
export const flightLog: string[] = [];

function fly(a: DOMRect, b: DOMRect, label: string, ms: number, color: string): void {
  const g = document.createElement('div');
  g.className = 'flight';
  g.dataset.flight = label;
  g.setAttribute('aria-hidden', 'true');
  Object.assign(g.style, {
    left: `${a.left}px`,
    top: `${a.top}px`,
    width: `${Math.max(6, a.width)}px`,
    height: `${Math.max(6, a.height)}px`,
    borderColor: color,
  });
  document.body.appendChild(g);
  const dx = b.left + b.width / 2 - (a.left + a.width / 2);
  const dy = b.top + b.height / 2 - (a.top + a.height / 2);
  const sx = Math.max(6, b.width) / Math.max(6, a.width);
  const sy = Math.max(6, b.height) / Math.max(6, a.height);
  flightLog.push(label);
  if (flightLog.length > 50) flightLog.shift();
  if (typeof g.animate !== 'function') {
    g.remove();
    return;
  }
  const anim = g.animate(
    [
      { transform: 'translate(0px, 0px) scale(1, 1)', opacity: 0.95 },
      { transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})`, opacity: 0.6 },
    ],
    { duration: ms, easing: 'ease-in-out', fill: 'forwards' },
  );
  anim.onfinish = () => g.remove();
  anim.oncancel = () => g.remove();
}

const COLORS = { sheaf: '#337ab7', object: '#e67e22', slab: '#9b59b6' };

/** A batch flies at most this often while playing fast. */
const BATCH_EVERY_MS = 400;

/** How long one step's flight takes: animMs paused (x1.6), while playing
 * what fits in one step at the speed. 0: none. */
export function flightMs(animMs: number, playing: boolean, speed: number): number {
  if (!animMs) return 0;
  if (!playing) return Math.max(150, animMs * 1.6);
  return Math.max(80, Math.min(animMs * 1.6, (0.9 * 1000) / Math.max(1, speed)));
}

export function Transitions() {
  const st = useAppState();
  const f = st.frame;
  const prev = useRef<{ seq: number; snap: Snapshot } | null>(null);
  // where the next batch starts: playing fast, the last batch's end (every
  // step between two batches is in the second one); else the last frame
  const base = useRef<{ seq: number; snap: Snapshot } | null>(null);
  const lastBatch = useRef(0);
  const before = useRef<{ fl: Flight; rect: DOMRect; ms: number; label: string }[]>([]);
  const kept = useRef<Map<string, DOMRect>>(new Map());
  const fast = playingFast(st);

  // before the panels redraw: where the moving things are drawn now
  useLayoutEffect(() => {
    before.current = [];
    const p = prev.current;
    const cur = f ? { seq: f.seq, snap: f.snapshot } : null;
    prev.current = cur;
    if (!f || !p || !st.animMs || f.seq <= p.seq) {
      base.current = cur;
      return;
    }
    if (f.seq === p.seq + 1 && !fast) {
      base.current = cur;
      const ms = flightMs(st.animMs, st.playing, st.speed);
      for (const fl of flightsOf(f.event, p.snap)) {
        const rect = kept.current.get(`${fl.kind} ${fl.id}`) ?? locate(fl, fl.from, document, 'from')?.getBoundingClientRect();
        if (rect) before.current.push({ fl, rect, ms, label: `${fl.kind} ${fl.id} ${fl.from}->${fl.to}` });
      }
      return;
    }
    // a batch (playing fast, or several steps in one frame): a summary, at
    // most every BATCH_EVERY_MS; playing fast, the steps in between wait
    // for the next one
    const now = performance.now();
    if (now - lastBatch.current < BATCH_EVERY_MS) {
      if (!fast) base.current = cur;
      return;
    }
    lastBatch.current = now;
    const from = fast && base.current && base.current.seq <= p.seq ? base.current : p;
    base.current = cur;
    const b = batchFlights(from.snap, f.snapshot, st.selectedCache);
    const ms = Math.max(150, Math.min(st.animMs * 1.6, BATCH_EVERY_MS));
    const tag = ` (batch of ${f.seq - from.seq} steps${b.more ? `, ${b.more} more moves` : ''})`;
    for (const fl of b.flights) {
      const rect = locate(fl, fl.from, document, 'from', true)?.getBoundingClientRect();
      if (rect) before.current.push({ fl, rect, ms, label: `${fl.kind} ${fl.id} ${fl.from}->${fl.to}${tag}` });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [f]);

  // after the panels redrew (their effects ran first; playing fast, the
  // late panels draw in later tasks: the batch lands once they have)
  useEffect(() => {
    const due = before.current;
    before.current = [];
    const land = () => {
      // every end read before any ghost is added: a read after one would
      // lay the page out again (a batch's 12 flights: 10-13 ms a batch)
      const ends = due.map((d) => locate(d.fl, d.fl.to, document, 'to')?.getBoundingClientRect());
      due.forEach(({ fl, rect, ms, label }, i) => {
        const to = ends[i];
        if (!to || Math.abs(to.left - rect.left) + Math.abs(to.top - rect.top) < 3) return;
        fly(rect, to, label, ms, COLORS[fl.kind]);
      });
    };
    if (fast && due.length && lateDraws.enabled()) lateDraws.afterDrawn(land);
    else land();
    // reading the rects forces a layout: only a step's flight (not playing
    // fast) starts from them
    kept.current = st.animMs && !fast ? reactRects() : new Map();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [f]);

  return null;
}
