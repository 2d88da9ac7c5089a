// The player's marks on the visualizer. The D3 views carry data-* attributes
// on every model element (data-slab-id, data-object-id, data-sheaf-id,
// data-cpu, data-node, data-list, data-where, data-barn-node, data-stat);
// a stop's highlights become CSS selectors over them, and the matching
// elements get data-lesson-hl="true" (focused panels data-lesson-focus),
// re-applied whenever the views redraw. Clicks in the visualizer map back to
// element ids the same way.
import { TEXT_TABS, type ClickTarget, type Highlight } from './format';

const q = (v: string | number) => JSON.stringify(String(v));

/** Panel ids (data-panel) of the focusable views. */
export function panelOf(view: string): string {
  if ((TEXT_TABS as readonly string[]).includes(view)) return 'text';
  if (view === 'data') return 'lesson-data';
  return view;
}

/** CSS selectors of a list id "KIND:N" in the views. */
export function listSelectors(list: string): string[] {
  const m = /^([a-z_]+):(\d+)$/.exec(list);
  if (!m) return [];
  const [, kind, n] = m;
  switch (kind) {
    case 'partial':
    case 'full':
      return [`g.slab-list[data-list=${q(kind)}][data-node=${q(n)}]`];
    case 'barn_full':
    case 'barn_empty':
      return [`[data-barn-node=${q(n)}] > [data-list=${q(kind)}]`];
    case 'main':
    case 'spare':
      return [`[data-cpu=${q(n)}] > [data-where=${q(kind)}]`];
    case 'cpu_slab':
    case 'cpu_partial':
      return [`[data-cpu=${q(n)}] [data-list=${q(kind)}]`];
    case 'cpu_freelist':
      return [`[data-cpu=${q(n)}] [data-object-state="cpu_freelist"]`];
    default:
      return [];
  }
}

/** CSS selectors of the elements that show a highlighted item. */
export function highlightSelectors(h: Highlight): string[] {
  if ('slab' in h) return [`[data-slab-id=${q(h.slab)}]`];
  if ('obj' in h) return [`[data-object-id=${q(h.obj)}]`];
  if ('sheaf' in h) return [`[data-sheaf-id=${q(h.sheaf)}]`];
  if ('cpu' in h) return [`[data-panel=topology] [data-cpu=${q(h.cpu)}]`, `g.cpu-row[data-cpu=${q(h.cpu)}]`, `g.kcpu-row[data-cpu=${q(h.cpu)}]`];
  if ('node' in h) return [`[data-panel=topology] [data-node=${q(h.node)}]`, `[data-barn-node=${q(h.node)}]`];
  if ('list' in h) return listSelectors(h.list);
  if ('stat' in h) return [`[data-stat=${q(h.stat)}]`, `[data-node-counter=${q(h.stat)}]`, `[data-lesson-watch=${q('stat:' + h.stat)}]`];
  if ('sysfs' in h) return [`[data-lesson-watch=${q('sysfs:' + h.sysfs)}]`];
  if ('slabinfo' in h) return [`[data-lesson-watch=${q('slabinfo:' + h.slabinfo)}]`];
  if ('table' in h) return [`[data-table-id=${q(h.table)}]`];
  return [];
}

/** The id a click on `el` answers for a click question of `target`, or
 * null when the element is not one of that kind. */
export function clickedId(el: Element, target: ClickTarget): number | string | null {
  const num = (e: Element | null, attr: string): number | null => {
    const v = e?.getAttribute(attr);
    return v !== null && v !== undefined && /^-?\d+$/.test(v) ? Number(v) : null;
  };
  switch (target) {
    case 'slab':
      return num(el.closest('[data-slab-id]'), 'data-slab-id');
    case 'object':
      return num(el.closest('[data-object-id]'), 'data-object-id');
    case 'sheaf':
      return num(el.closest('[data-sheaf-id]'), 'data-sheaf-id');
    case 'cpu':
      return num(el.closest('[data-cpu]'), 'data-cpu');
    case 'node': {
      const n = num(el.closest('[data-node]'), 'data-node') ?? num(el.closest('[data-barn-node]'), 'data-barn-node');
      return n !== null && n >= 0 ? n : null;
    }
    case 'list': {
      const where = el.closest('[data-where]');
      const lst = el.closest('[data-list]');
      // the innermost of the two names the list
      const inner = where && (!lst || lst.contains(where)) ? where : lst;
      if (!inner) return null;
      if (inner === where) {
        const kind = where.getAttribute('data-where');
        const cpu = num(where.closest('[data-cpu]'), 'data-cpu');
        return (kind === 'main' || kind === 'spare') && cpu !== null ? `${kind}:${cpu}` : null;
      }
      const kind = inner.getAttribute('data-list') ?? '';
      if (kind === 'partial' || kind === 'full') {
        const node = num(inner.closest('[data-node]'), 'data-node');
        return node !== null && node >= 0 ? `${kind}:${node}` : null;
      }
      if (kind === 'barn_full' || kind === 'barn_empty') {
        const node = num(inner.closest('[data-barn-node]'), 'data-barn-node');
        return node !== null ? `${kind}:${node}` : null;
      }
      if (kind === 'cpu_slab' || kind === 'cpu_partial') {
        const cpu = num(inner.closest('[data-cpu]'), 'data-cpu');
        return cpu !== null ? `${kind}:${cpu}` : null;
      }
      return null;
    }
  }
}

/** Elements a click question accepts clicks on (for the crosshair cursor). */
export function clickableSelector(target: ClickTarget): string {
  switch (target) {
    case 'slab':
      return '[data-slab-id]';
    case 'object':
      return '[data-object-id]';
    case 'sheaf':
      return '[data-sheaf-id]';
    case 'cpu':
      return '[data-cpu]';
    case 'node':
      return '[data-panel=topology] [data-node], [data-barn-node]';
    case 'list':
      return 'g.slab-list, [data-where], [data-list]';
  }
}

const WATCHED = ['data-slab-id', 'data-object-id', 'data-sheaf-id', 'data-cpu', 'data-node', 'data-list', 'data-where',
  'data-barn-node', 'data-stat', 'data-node-counter', 'data-panel', 'data-object-state', 'data-lesson-watch', 'data-table-id'];

export interface Marks {
  highlight: Highlight[];
  /** views to focus (VIEWS of the lesson format) */
  focus: string[];
}

/** Keeps the marks on the document while the views redraw. */
export class Marker {
  private marks: Marks = { highlight: [], focus: [] };
  private observer: MutationObserver | null = null;
  private scheduled = false;

  constructor(private readonly root: Element) {}

  start(): void {
    if (this.observer) return;
    this.observer = new MutationObserver(() => this.schedule());
    this.observer.observe(this.root, { subtree: true, childList: true, attributes: true, attributeFilter: WATCHED });
    this.apply();
  }

  stop(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.marks = { highlight: [], focus: [] };
    this.apply();
  }

  set(marks: Marks): void {
    this.marks = marks;
    this.apply();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.apply();
    });
  }

  /** Set the attributes on exactly the matching elements. */
  apply(): void {
    const want = new Set<Element>();
    for (const h of this.marks.highlight) {
      for (const sel of highlightSelectors(h)) this.root.querySelectorAll(sel).forEach((e) => want.add(e));
    }
    this.root.querySelectorAll('[data-lesson-hl]').forEach((e) => {
      if (!want.has(e)) e.removeAttribute('data-lesson-hl');
    });
    for (const e of want) if (e.getAttribute('data-lesson-hl') !== 'true') e.setAttribute('data-lesson-hl', 'true');

    const panels = new Map<string, number>();
    this.marks.focus.forEach((v, i) => {
      const p = panelOf(v);
      if (!panels.has(p)) panels.set(p, i);
    });
    this.root.querySelectorAll('[data-lesson-focus]').forEach((e) => {
      if (!panels.has(e.getAttribute('data-panel') ?? '')) e.removeAttribute('data-lesson-focus');
    });
    for (const [p, i] of panels) {
      this.root.querySelectorAll(`[data-panel=${q(p)}]`).forEach((e) => {
        if (e.getAttribute('data-lesson-focus') !== String(i)) e.setAttribute('data-lesson-focus', String(i));
      });
    }
  }
}
