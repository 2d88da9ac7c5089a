// A lesson player's state before anything is opened: one place for the
// player's store and the app's handle (mount.ts), which shows it until the
// player's code is loaded and must not import the store to do so.
import type { LessonState } from './store';

export function initialLessonState(): LessonState {
  return {
    open: false,
    index: null,
    sources: {},
    error: null,
    lessons: {},
    prose: {},
    translations: {},
    progress: {},
    current: null,
    item: 0,
    moving: false,
    loadingRun: null,
    prepared: {},
    questions: {},
    sandbox: { lines: [], text: '', result: null, problems: [], running: false },
    extras: {},
    goals: {},
    marks: { highlight: [], focus: [] },
    armed: null,
  };
}
