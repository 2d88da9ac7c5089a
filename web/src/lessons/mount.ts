// The lesson player's place in the app: one LessonStore per app Store (made
// on first use), its worker, IndexedDB progress, the test hook, and share
// links in the URL hash (read at boot by main.tsx and on hashchange).
import { useSyncExternalStore } from 'react';
import type { Store } from '../state/store';
import { useStore } from '../views/hooks';
import { LessonClient } from './client';
import { installLessonHook } from './hook';
import { decodeLessonLink } from './link';
import { defaultProgressStorage } from './progress';
import { LessonStore, type LessonState } from './store';

const stores = new WeakMap<Store, LessonStore>();

/** The lesson store of an app store (browser: a worker and IndexedDB). */
export function lessonsFor(app: Store): LessonStore {
  let l = stores.get(app);
  if (!l) {
    const base = new URL(import.meta.env.BASE_URL, location.href);
    l = new LessonStore(app, new LessonClient(new URL('wasm/', base).href), defaultProgressStorage(), {
      fetchText: (path) => app.env.fetchText(path),
      setHash: (hash) => {
        if (location.hash === hash || (!hash && !location.hash)) return;
        history.replaceState(null, '', hash || location.pathname + location.search);
      },
    });
    stores.set(app, l);
    installLessonHook(l);
    const ls = l;
    window.addEventListener('hashchange', () => {
      const link = decodeLessonLink(location.hash);
      if (link) void ls.openLink(link);
    });
  }
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

export function useLessons(): LessonStore {
  return lessonsFor(useStore());
}

export function useLessonState(): LessonState {
  const l = useLessons();
  return useSyncExternalStore(l.subscribe, l.getState);
}
