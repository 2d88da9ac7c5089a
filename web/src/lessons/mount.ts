// The lesson player's place in the app: one Lessons handle per app Store,
// made on first use. The player's code (its store, worker client, the views,
// markdown) is a separate chunk loaded when a student first asks for a
// lesson (issue 14: main JS); until then the handle says "closed" and a
// stand-in test hook loads the player on its first action. Share links in
// the URL hash are read at boot by main.tsx and on hashchange.
import { useSyncExternalStore } from 'react';
import type { Store } from '../state/store';
import { useStore } from '../views/hooks';
import type { LessonHook } from './hook';
import { initialLessonState } from './initial';
import { decodeLessonLink, type LessonLink } from './link';
import type { LessonState, LessonStore } from './store';

/** What the app sees of the player before and after its code is in. */
export interface Lessons {
  getState(): LessonState;
  subscribe(f: () => void): () => void;
  /** the player, its code loaded on the first call */
  load(): Promise<LessonStore>;
  /** the player if its code is in */
  loaded(): LessonStore | null;
  openLink(link: LessonLink): Promise<void>;
  showList(): Promise<void>;
  close(): void;
}

/** The state of a player never opened. */
const CLOSED: LessonState = initialLessonState();

/** The views' chunk, fetched beside the store's so the column shows at once. */
export const loadLessonViews = () => import('./LessonsView');

function makeLessons(app: Store): Lessons {
  let real: LessonStore | null = null;
  let loading: Promise<LessonStore> | null = null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const f of listeners) f();
  };
  const load = (): Promise<LessonStore> =>
    (loading ??= Promise.all([import('./player'), loadLessonViews()]).then(([m]) => {
      real = m.createLessonStore(app); // installs the real test hook
      real.subscribe(notify);
      notify();
      return real;
    }));
  const lessons: Lessons = {
    getState: () => real?.getState() ?? CLOSED,
    subscribe: (f) => {
      listeners.add(f);
      return () => listeners.delete(f);
    },
    load,
    loaded: () => real,
    openLink: async (link) => (await load()).openLink(link),
    showList: async () => (await load()).showList(),
    close: () => real?.close(),
  };
  // the stand-in hook: state as the app sees it; an action loads the player
  // (whose hook then replaces this one)
  const hook: LessonHook = {
    version: 1,
    state: lessons.getState,
    summaries: () => ({}),
    act: async (name, ...args) => {
      await load();
      return window.__slubvizLessons!.act(name, ...args);
    },
    idle: async () => (loading ? (await loading).idle() : app.idle()),
  };
  window.__slubvizLessons = hook;
  window.addEventListener('hashchange', () => {
    const link = decodeLessonLink(location.hash);
    if (link) void lessons.openLink(link);
  });
  return lessons;
}

const handles = new WeakMap<Store, Lessons>();

/** The lessons handle of an app store (made once per store). */
export function lessonsFor(app: Store): Lessons {
  let l = handles.get(app);
  if (!l) handles.set(app, (l = makeLessons(app)));
  return l;
}

/** Boot: open the lesson link in the URL hash, if there is one. True if
 * the player opened a run (the app must not open its default one). */
export async function openLessonLinkAtBoot(app: Store): Promise<boolean> {
  const link = decodeLessonLink(location.hash);
  if (!link) return false;
  const l = lessonsFor(app);
  if (!link.lesson) {
    // the list: the app opens its default run as usual
    void l.showList();
    return false;
  }
  await l.openLink(link);
  // an unknown lesson or stop: the player shows why, the app opens its default run
  return app.getState().frame !== null;
}

/** The player, for its views (rendered only once its code is in). */
export function useLessons(): LessonStore {
  const l = lessonsFor(useStore()).loaded();
  if (!l) throw new Error('lesson views rendered before the player loaded');
  return l;
}

export function useLessonState(): LessonState {
  const l = lessonsFor(useStore());
  return useSyncExternalStore(l.subscribe, l.getState);
}

/** One value of the lesson state (a boolean, a string): the caller renders
 * when it changes, not on every change of the player (a move to a stop
 * changes it a dozen times; the whole app once rendered each time). */
export function useLessonPick<T extends string | number | boolean | null>(pick: (st: LessonState) => T): T {
  const l = lessonsFor(useStore());
  return useSyncExternalStore(l.subscribe, () => pick(l.getState()));
}
