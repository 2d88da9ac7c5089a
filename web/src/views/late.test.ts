// Late panels (hooks.ts, LateDraws): while playing, a panel marked late
// draws each new state in a task after the frame the others drew it in is
// painted, and the next batch is asked for only after that.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { AppState, Store } from '../state/store';
import { PanelVisibility, lateDraws } from './hooks';

let animationFrames: (() => void)[] = [];
/** The browser's next frame: its animation-frame callbacks, then its paint. */
const nextFrame = () => {
  const due = animationFrames;
  animationFrames = [];
  for (const fn of due) fn();
};

/** the fields of the app's state these tests change */
let state: { playing: boolean; seq: number };
const shown = () => state as unknown as AppState;
const store = { getState: shown } as unknown as Store;
const playing = (playing: boolean, seq: number) => (state = { playing, seq });

/** A late panel and the seqs it drew, `draw` its store listener. */
function latePanel() {
  const vis = new PanelVisibility();
  vis.late = true;
  const drawn: number[] = [];
  return { vis, drawn, draw: () => drawn.push(state.seq) };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  vi.stubGlobal('requestAnimationFrame', (fn: () => void) => animationFrames.push(fn));
  animationFrames = [];
  state = { playing: false, seq: 0 };
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

test('playing: a late panel draws a new state after the frame the others drew it in, then the next batch is asked for', () => {
  const early = new PanelVisibility();
  const late = new PanelVisibility();
  late.late = true;
  const drawn: string[] = [];
  late.subscribe(() => drawn.push(`late ${state.seq}`));

  playing(true, 1);
  early.changed(store, () => drawn.push(`early ${state.seq}`));
  late.changed(store, () => drawn.push('late at once'));
  lateDraws.afterDrawn(() => drawn.push('next batch'));
  expect(drawn).toEqual(['early 1']);
  expect(early.holding(shown())).toBe(false);
  expect(late.holding(shown())).toBe(true); // keeps what it showed

  nextFrame(); // the early panels' frame is painted
  expect(drawn).toEqual(['early 1']);
  vi.runAllTimers(); // the task after it
  expect(drawn).toEqual(['early 1', 'late 1']);
  expect(late.holding(shown())).toBe(false);

  nextFrame(); // the late panels' frame: only now the next batch
  expect(drawn).toEqual(['early 1', 'late 1', 'next batch']);

  // nothing held: the next batch at the next frame
  lateDraws.afterDrawn(() => drawn.push('batch after'));
  nextFrame();
  expect(drawn.at(-1)).toBe('batch after');
});

test('paused, a late panel draws every change at once', () => {
  const { vis: late, drawn, draw } = latePanel();
  playing(false, 7);
  late.changed(store, draw);
  expect(drawn).toEqual([7]);
  expect(late.holding(shown())).toBe(false);

  // the pause that ends a play is drawn at once, whatever was held
  playing(true, 8);
  late.changed(store, draw);
  expect(late.holding(shown())).toBe(true);
  playing(false, 8);
  late.changed(store, draw);
  expect(drawn).toEqual([7, 8]);
  expect(late.holding(shown())).toBe(false);
  nextFrame();
  vi.runAllTimers();
});

test('without animation frames (no browser) nothing is late', () => {
  vi.unstubAllGlobals();
  const { vis: late, drawn, draw } = latePanel();
  playing(true, 3);
  late.changed(store, draw);
  expect(drawn).toEqual([3]);
});
