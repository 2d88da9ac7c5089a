import { createContext, createElement, useCallback, useContext, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { AppState, Store } from '../state/store';

export const StoreContext = createContext<Store | null>(null);

/** Prefix of the panels' element ids: the A/B view draws the same panels
 * once per side, and ids must stay unique in the page. */
export const PanelIdPrefix = createContext('');

/** A landmark's name on a side of the A/B view: "A: name" / "B: name"
 * (the panels' names stay unique in the page), else the name itself. */
export function useSideName(): (name: string) => string {
  const side = /^ab-([ab])-$/.exec(useContext(PanelIdPrefix))?.[1]?.toUpperCase();
  return (name) => (side ? `${side}: ${name}` : name);
}

export function useStore(): Store {
  const s = useContext(StoreContext);
  if (!s) throw new Error('no store');
  return s;
}

/** The state as the views show it. While playing, the engine is busy with
 * each step in turn: that is not shown (no "working…", no buttons blinking
 * with every step), and a busy flag going on and off around each step
 * re-renders nothing. */
export function useAppState(): AppState {
  return useSelect(shownState);
}

/** The state as shown (busy hidden while playing); for selectors too. */
export const shownState = (st: AppState): AppState => (st.busy && st.playing ? { ...st, busy: false } : st);

/** The state of a given store (the A/B view's side B). */
export function useStateOf(store: Store): AppState {
  return useSyncExternalStore(store.subscribe, store.getState);
}

/** Same values, field by field (one level). */
function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a) as (keyof T)[];
  return ka.length === Object.keys(b).length && ka.every((k) => Object.is(a[k], b[k]));
}

/** The part of the state a view draws from: the view re-renders when that
 * part changes (compared field by field), not on every store change (busy
 * on and off around each step while playing, progress...). */
export function useSelect<T>(pick: (st: AppState) => T, store: Store = useStore()): T {
  const last = useRef<{ st: AppState; value: T } | null>(null);
  const hold = useContext(OffscreenHold);
  const get = (): T => {
    const st = store.getState();
    const l = last.current;
    if (l?.st === st) return l.value;
    // out of sight while playing, or veiled: what it showed (PanelVisibility)
    if (l && hold?.holding(st)) return l.value;
    const value = pick(st);
    last.current = { st, value: l && shallowEqual(l.value, value) ? l.value : value };
    return last.current.value;
  };
  const subscribe = useCallback(
    (l: () => void) => {
      const off = store.subscribe(hold ? () => hold.changed(store, l) : l);
      const offHold = hold?.subscribe(l);
      return () => {
        off();
        offHold?.();
      };
    },
    [store, hold],
  );
  return useSyncExternalStore(subscribe, get);
}

/** Above this speed (steps per second) playing is fast: a frame brings a
 * batch of steps, the panels draw it late (LateDraws) and its moves fly as
 * one summary (Transitions); at or below it each step is drawn, and flies,
 * as it comes. */
export const FAST_PLAY_SPEED = 10;
export const playingFast = (st: AppState): boolean => st.playing && st.speed > FAST_PLAY_SPEED;

/** While playing, a panel scrolled out of sight is not redrawn: each step
 * would restyle, lay out and paint (and run the D3 joins of) a drawing no
 * one sees, most of a playing frame with every panel on the page. The
 * panel's useSelect() calls keep their last value until it comes within
 * MARGIN of the viewport (an IntersectionObserver on its <section>, which
 * Panel registers) or the play stops; then it draws the current frame at
 * once. Paused, every panel follows every change, seen or not (a seek, a
 * test reading data-* attributes), except under a veil (Veiled): a lesson
 * moving the visualizer to its next position draws it there once, not at
 * each position on the way (the run opened, then the seek). */
export class PanelVisibility {
  static readonly MARGIN = '200px';
  /** until the observer says otherwise (and where there is none: jsdom) */
  private inView = true;
  /** under the veil (HoldOffscreen sets it from Veiled) */
  veiled = false;
  private observer: IntersectionObserver | null = null;
  private readonly listeners = new Set<() => void>();

  /** the state the panel may draw while playing fast (lateDraws) */
  private released: AppState | null = null;
  private store: Store | null = null;

  holding(st: AppState): boolean {
    return this.veiled || (st.playing && (!this.inView || (playingFast(st) && st !== this.released)));
  }

  /** The store changed: playing fast, the panel draws it after the page's
   * frame has been painted (lateDraws); else at once. */
  changed(store: Store, listener: () => void): void {
    if (playingFast(store.getState()) && lateDraws.enabled()) {
      this.store = store;
      lateDraws.hold(this);
    } else listener();
  }

  /** lateDraws: draw what the store holds now. */
  release(): void {
    if (this.store) this.released = this.store.getState();
    this.wake();
  }

  /** Everyone draws the current state (the panel came into view, the veil lifted). */
  wake(): void {
    for (const l of this.listeners) l();
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  /** The panel's element (null: unmounted). */
  observe = (el: Element | null): void => {
    this.observer?.disconnect();
    this.observer = null;
    this.inView = true;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    this.observer = new IntersectionObserver(
      (entries) => {
        const seen = entries[entries.length - 1].isIntersecting;
        if (seen === this.inView) return;
        this.inView = seen;
        if (seen) this.wake();
      },
      { rootMargin: PanelVisibility.MARGIN },
    );
    this.observer.observe(el);
  };
}

/** Playing fast, a new frame redraws every panel in sight: about 50 ms of
 * script, style, layout and paint here (ublk-bio256 at 10,000 steps/s), so
 * drawn in one task, or in two halves, most frames that brought a step
 * took two vsyncs (issue 14: p95 frame 33 ms). So the panels (those under
 * HoldOffscreen) draw it late: in tasks after the frame the step line and
 * the controls drew it in is painted, each task drawing panels, in the
 * order they were held, until LATE_BUDGET_MS of drawing would be passed
 * (each panel's last draw predicts its next), at least one; the rest wait
 * for the next frame's paint. So each frame's share, with the style,
 * layout and paint it causes, fits in one vsync. The store asks for the
 * next batch after the last panel is drawn (afterDrawn, its Env.frame), so
 * a new frame does not land on them. Paused or playing slowly
 * (FAST_PLAY_SPEED), every panel draws every change at once. */
// Measured on ublk-bio256 at 10,000 steps/s (frames over 20 ms in 3 s, and
// batches drawn): 3 ms 1-8 (29), 4 ms 2-3 (30-34), 6 ms 5-13 (34-38), 10 ms
// 6-13 (44-52).
export const LATE_BUDGET_MS = 4;

class LateDraws {
  private readonly pending = new Set<PanelVisibility>();
  /** how long each panel's last release took to draw (ms) */
  private readonly cost = new WeakMap<PanelVisibility, number>();
  private scheduled = false;
  private waiting: (() => void)[] = [];

  /** no animation frames (jsdom): nothing is late */
  enabled(): boolean {
    return typeof requestAnimationFrame === 'function';
  }

  hold(vis: PanelVisibility): void {
    this.pending.add(vis);
    this.releaseAfterPaint();
  }

  /** a task queued from the next animation frame: after its paint */
  private releaseAfterPaint(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => setTimeout(() => this.releaseSome(), 0));
  }

  private releaseSome(): void {
    this.scheduled = false;
    const start = performance.now();
    for (const vis of this.pending) {
      const now = performance.now();
      if (now > start && now - start + (this.cost.get(vis) ?? 0) > LATE_BUDGET_MS) break;
      this.pending.delete(vis);
      // drawn now (render, commit, D3 effects), not at the task's end, so
      // its time is known
      flushSync(() => vis.release());
      this.cost.set(vis, performance.now() - now);
    }
    if (this.pending.size) {
      this.releaseAfterPaint();
      return;
    }
    const waiting = this.waiting;
    this.waiting = [];
    for (const fn of waiting) requestAnimationFrame(fn);
  }

  /** `fn` at the animation frame after the held panels have drawn what
   * they hold (the next one if they hold nothing). */
  afterDrawn = (fn: () => void): void => {
    if (this.pending.size) this.waiting.push(fn);
    else requestAnimationFrame(fn);
  };
}
export const lateDraws = new LateDraws();

const OffscreenHold = createContext<PanelVisibility | null>(null);

/** The visualizer is veiled (a lesson opening its run, seeking its
 * position): the panels keep what they show until it lifts. */
export const Veiled = createContext(false);

/** A panel's view (whose hooks run above its <Panel>) held while out of
 * sight or veiled: see PanelVisibility. */
export function HoldOffscreen({ view }: { view: () => React.JSX.Element }) {
  const [vis] = useState(() => new PanelVisibility());
  const veiled = useContext(Veiled);
  vis.veiled = veiled;
  // the veil lifted: drawn in this commit, not a frame later
  useLayoutEffect(() => {
    if (!veiled) vis.wake();
  }, [vis, veiled]);
  useEffect(() => () => vis.observe(null), [vis]);
  return createElement(OffscreenHold.Provider, { value: vis }, createElement(view));
}

/** Panel's ref: the <section> the nearest HoldOffscreen watches. */
export function usePanelVisibilityRef(): ((el: Element | null) => void) | undefined {
  return useContext(OffscreenHold)?.observe;
}

/** An <svg> drawn by a D3 render function whenever `deps` change. */
export function useD3<E extends Element>(render: (el: E) => void, deps: unknown[]) {
  const ref = useRef<E>(null);
  useEffect(() => {
    if (ref.current) render(ref.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return ref;
}

/** Regions that scroll (a panel's body narrower than its table or drawing,
 * a .scroll box) must be reachable from the keyboard: they get a tab stop
 * while they overflow, and lose it when they fit again. Checked after each
 * state change and on resize, once the next frame is laid out (a
 * ResizeObserver's first notice comes after layout, before paint), so the
 * sizes are read from that layout: read in an animation frame, before it,
 * they forced a layout that the frame's effects then undid, ~120 ms of
 * main thread per lesson 06 variant switch (profiled). Not while playing,
 * where reading the sizes forced a layout of the whole page every frame
 * (the pause that ends the play is a state change, checked). */
export function useScrollableRegions(store: Store, selector = '.panel-body, .scroll, .ab-tables, .table-wrap'): void {
  useEffect(() => {
    let frame = 0;
    // one observer, observing only while a check waits for its layout
    const laidOut = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => check());
    const check = () => {
      frame = 0;
      laidOut?.unobserve(document.documentElement);
      // every size read before any tab stop is set: a read after a write
      // may lay the page out again
      const regions = [...document.querySelectorAll<HTMLElement>(selector)];
      const overs = regions.map((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
      regions.forEach((el, i) => {
        const over = overs[i];
        if (over && !el.hasAttribute('tabindex')) {
          el.tabIndex = 0;
          el.dataset.scrollStop = '1';
        } else if (!over && el.dataset.scrollStop) {
          el.removeAttribute('tabindex');
          delete el.dataset.scrollStop;
        }
      });
    };
    // the observation starts in an animation frame, never while observers
    // are being notified (the body's below): one started then is only
    // noticed a frame later, with an error ("ResizeObserver loop")
    const soon = () => {
      if (frame || store.getState().playing) return;
      frame = requestAnimationFrame(() => (laidOut ? laidOut.observe(document.documentElement) : check())); // check(): jsdom
    };
    const unsub = store.subscribe(soon);
    window.addEventListener('resize', soon);
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(soon);
    ro?.observe(document.body);
    soon();
    return () => {
      unsub();
      window.removeEventListener('resize', soon);
      ro?.disconnect();
      laidOut?.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [store, selector]);
}

/** While playing, a panel keeps the tallest height it has had since play
 * began (min-height, released on pause). A panel whose content changes
 * height from step to step (the call path, the counters, the lanes'
 * status) otherwise moved every panel below it, and a moved panel is laid
 * out and painted again whole: at 10,000 steps/s most frames did so for
 * the page's length (issue 14). */
export function useHeightsHeldWhilePlaying(store: Store, selector = '.panel'): void {
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const tallest = new Map<HTMLElement, number>();
    const ro = new ResizeObserver((entries) => {
      for (const e of entries) {
        const el = e.target as HTMLElement;
        // content box: a panel's min-height applies to it (box-sizing: content-box)
        const h = Math.ceil(e.contentRect.height);
        if (h > (tallest.get(el) ?? 0)) {
          tallest.set(el, h);
          el.style.minHeight = `${h}px`;
        }
      }
    });
    let holding = false;
    const follow = () => {
      const playing = store.getState().playing;
      if (playing === holding) return;
      holding = playing;
      if (playing) for (const el of document.querySelectorAll<HTMLElement>(selector)) ro.observe(el);
      else {
        ro.disconnect();
        for (const el of tallest.keys()) el.style.minHeight = '';
        tallest.clear();
      }
    };
    const unsub = store.subscribe(follow);
    follow();
    return () => {
      unsub();
      ro.disconnect();
      for (const el of tallest.keys()) el.style.minHeight = '';
    };
  }, [store, selector]);
}

/** The width of an element, followed as it resizes (at least 100 px). */
export function useWidth(ref: RefObject<HTMLElement | null>, initial: number): number {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(Math.max(100, el.clientWidth)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
