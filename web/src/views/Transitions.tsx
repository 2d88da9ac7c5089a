// Event-driven transitions: when one step forward moves a sheaf, an object
// or a slab from one container to another (the event's `from` -> `to`:
// main/spare -> barn, slab freelist -> sheaf, sheaf -> user, partial list ->
// cpu slab ...), a ghost of it flies from where it was drawn to where it is
// drawn now, across panels. The positions come from the data-* attributes
// (data-sheaf-id, data-object-id, data-slab-id): measured before the panels
// redraw (layout effect) and after (this component's effect runs after the
// panels' D3 effects: it comes last in <App>). No ghosts with animations
// off (?anim=0, prefers-reduced-motion, the tests' default), on seeks and
// steps back, or while playing fast.
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { SvzEvent } from '../engine/types';
import { useAppState } from './hooks';

export interface Flight {
  kind: 'sheaf' | 'object' | 'slab';
  id: number;
  from: string;
  to: string;
}

/** The flights an event asks for. */
export function flightsOf(ev: SvzEvent | null): Flight[] {
  if (!ev || !ev.from || !ev.to || ev.from === ev.to) return [];
  const f = ev.from;
  const t = ev.to;
  switch (ev.kind) {
    case 'move_sheaf':
      return ev.sheaf === undefined ? [] : [{ kind: 'sheaf', id: ev.sheaf, from: f, to: t }];
    case 'take_object':
    case 'put_object':
      return ev.obj === undefined ? [] : [{ kind: 'object', id: ev.obj, from: f, to: t }];
    case 'move_slab':
      return ev.slab === undefined ? [] : [{ kind: 'slab', id: ev.slab, from: f, to: t }];
  }
  return [];
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

/** Where a sheaf/object/slab is drawn for a location, or null. */
export function locate(fl: Flight, loc: string, doc: Document = document): Element | null {
  const sel = `[${ATTR[fl.kind]}="${fl.id}"]`;
  for (const p of PANELS[loc] ?? ['sheaves', 'barns', 'partial', 'slab']) {
    for (const el of doc.querySelectorAll(`[data-panel=${p}] ${sel}`)) {
      // the slab detail's <svg> carries data-slab-id too: take drawn things only
      if (el.tagName.toLowerCase() === 'svg') continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) return el;
    }
  }
  return null;
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

export function Transitions() {
  const st = useAppState();
  const f = st.frame;
  const ms = st.playing ? 0 : st.animMs;
  const prevSeq = useRef<number | null>(null);
  const before = useRef<{ fl: Flight; rect: DOMRect }[]>([]);

  // before the panels redraw: where the moving things are drawn now
  useLayoutEffect(() => {
    before.current = [];
    const seq = f?.seq ?? null;
    const stepped = seq !== null && prevSeq.current !== null && seq === prevSeq.current + 1;
    prevSeq.current = seq;
    if (!ms || !stepped) return;
    for (const fl of flightsOf(f!.event)) {
      const el = locate(fl, fl.from);
      if (el) before.current.push({ fl, rect: el.getBoundingClientRect() });
    }
  }, [f, ms]);

  // after the panels redrew (their effects ran first)
  useEffect(() => {
    for (const { fl, rect } of before.current) {
      const el = locate(fl, fl.to);
      if (!el) continue;
      const to = el.getBoundingClientRect();
      if (Math.abs(to.left - rect.left) + Math.abs(to.top - rect.top) < 3) continue;
      fly(rect, to, `${fl.kind} ${fl.id} ${fl.from}->${fl.to}`, Math.max(150, ms * 1.6), COLORS[fl.kind]);
    }
    before.current = [];
  }, [f, ms]);

  return null;
}
