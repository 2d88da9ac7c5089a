// window.__slubvizLessons: the lesson player's test hook (beside the app's
// window.__slubviz). Tests read the player's state here and call its named
// actions; they click the UI for everything a student does.
import type { LessonState } from './store';
import { lessonAct, type LessonActionName, type LessonStore } from './store';

export interface LessonHook {
  version: 1;
  state(): LessonState;
  /** progress in numbers per loaded lesson */
  summaries(): Record<string, ReturnType<LessonStore['summary']>>;
  act(name: LessonActionName, ...args: unknown[]): Promise<unknown>;
  idle(): Promise<void>;
}

declare global {
  interface Window {
    __slubvizLessons?: LessonHook;
  }
}

export function installLessonHook(store: LessonStore): void {
  window.__slubvizLessons = {
    version: 1,
    state: () => store.getState(),
    summaries: () => Object.fromEntries(Object.keys(store.getState().lessons).map((id) => [id, store.summary(id)])),
    act: (name, ...args) => lessonAct(store, name, ...args),
    idle: () => store.idle(),
  };
}
