// Panels drawn late (hooks.ts, LateDraws): playing fast, a held panel draws
// each new state in a task after the frame the page drew it in is painted,
// at most LATE_BUDGET_MS of drawing a task, and the next batch is asked for
// only once every held panel has drawn.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { AppState, Store } from '../state/store';
import { FAST_PLAY_SPEED, LATE_BUDGET_MS, PanelVisibility, lateDraws } from './hooks';

let animationFrames: (() => void)[] = [];
/** The browser's next frame: its animation-frame callbacks, then its paint. */
const nextFrame = () => {
  const due = animationFrames;
  animationFrames = [];
  for (const fn of due) fn();
};

/** the fields of the app's state these tests change */
let state: { playing: boolean; speed: number; seq: number };
const shown = () => state as unknown as AppState;
const store = { getState: shown } as unknown as Store;
const FAST = 1000;
const playing = (playing: boolean, seq: number, speed = FAST) => (state = { playing, speed, seq });

/** the clock performance.now() reads: drawing a panel moves it on */
let clock = 0;

/** A panel and the seqs it drew, `draw` its store listener; each draw takes `ms`. */
function panel(ms = 0) {
  const vis = new PanelVisibility();
  const drawn: number[] = [];
  const draw = () => {
    drawn.push(state.seq);
    clock += ms;
  };
  vis.subscribe(draw);
  return { vis, drawn, draw };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  vi.stubGlobal('requestAnimationFrame', (fn: () => void) => animationFrames.push(fn));
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  animationFrames = [];
  clock = 0;
  state = { playing: false, speed: FAST, seq: 0 };
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

test('playing fast: a panel draws a new state after the frame the page drew it in, then the next batch is asked for', () => {
  const p = panel();
  const log: string[] = [];
  p.vis.subscribe(() => log.push(`panel ${state.seq}`));

  playing(true, 1);
  p.vis.changed(store, () => log.push('panel at once'));
  lateDraws.afterDrawn(() => log.push('next batch'));
  expect(log).toEqual([]);
  expect(p.vis.holding(shown())).toBe(true); // keeps what it showed

  nextFrame(); // the page's frame (step line, controls) is painted
  expect(log).toEqual([]);
  vi.runAllTimers(); // the task after it
  expect(log).toEqual(['panel 1']);
  expect(p.vis.holding(shown())).toBe(false);

  nextFrame(); // the panel's frame: only now the next batch
  expect(log).toEqual(['panel 1', 'next batch']);

  // nothing held: the next batch at the next frame
  lateDraws.afterDrawn(() => log.push('batch after'));
  nextFrame();
  expect(log.at(-1)).toBe('batch after');
});

test('each task draws panels until LATE_BUDGET_MS would be passed, the rest after the next paint', () => {
  // each panel takes 3 ms to draw; the budget is 4 ms
  expect(LATE_BUDGET_MS).toBe(4);
  const panels = [panel(3), panel(3), panel(3)];
  let asked = 0;
  const round = (seq: number) => {
    playing(true, seq);
    for (const p of panels) p.vis.changed(store, () => {});
    lateDraws.afterDrawn(() => asked++);
  };
  const tasks: number[][] = [];
  const task = () => {
    nextFrame();
    vi.runAllTimers();
    tasks.push(panels.map((p) => p.drawn.length));
  };

  // first round, no draw measured yet: the first two fit (0 + 0, then 3 +
  // 0 ms predicted), the third would start at 6 ms
  round(1);
  task();
  task();
  expect(tasks).toEqual([
    [1, 1, 0],
    [1, 1, 1],
  ]);
  expect(asked).toBe(0);
  nextFrame();
  expect(asked).toBe(1);

  // now each predicts 3 ms: one a task (0 + 3 fits, 3 + 3 does not)
  tasks.length = 0;
  round(2);
  task();
  task();
  task();
  expect(tasks).toEqual([
    [2, 1, 1],
    [2, 2, 1],
    [2, 2, 2],
  ]);
  expect(panels.map((p) => p.drawn)).toEqual([[1, 2], [1, 2], [1, 2]]);
  nextFrame();
  expect(asked).toBe(2);
});

test('paused, a panel draws every change at once', () => {
  const { vis, drawn, draw } = panel();
  playing(false, 7);
  vis.changed(store, draw);
  expect(drawn).toEqual([7]);
  expect(vis.holding(shown())).toBe(false);

  // the pause that ends a play is drawn at once, whatever was held
  playing(true, 8);
  vis.changed(store, draw);
  expect(vis.holding(shown())).toBe(true);
  playing(false, 8);
  vis.changed(store, draw);
  expect(drawn).toEqual([7, 8]);
  expect(vis.holding(shown())).toBe(false);
  nextFrame();
  vi.runAllTimers();
});

test('playing slowly (FAST_PLAY_SPEED steps/s or fewer), a panel draws every change at once', () => {
  const { vis, drawn, draw } = panel();
  playing(true, 4, FAST_PLAY_SPEED);
  vis.changed(store, draw);
  expect(drawn).toEqual([4]);
  expect(vis.holding(shown())).toBe(false);
  expect(animationFrames).toEqual([]);
});

test('without animation frames (no browser) nothing is late', () => {
  vi.unstubAllGlobals();
  const { vis, drawn, draw } = panel();
  playing(true, 3);
  vis.changed(store, draw);
  expect(drawn).toEqual([3]);
});
