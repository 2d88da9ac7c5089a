// The lesson player proper, loaded on first use (mount.ts, issue 14): its
// store, the worker client, IndexedDB progress and the test hook.
import type { Store } from '../state/store';
import { LessonClient } from './client';
import { installLessonHook } from './hook';
import { defaultProgressStorage } from './progress';
import { LessonStore } from './store';

export function createLessonStore(app: Store): LessonStore {
  const base = new URL(import.meta.env.BASE_URL, location.href);
  const l = new LessonStore(app, new LessonClient(new URL('wasm/', base).href), defaultProgressStorage(), {
    fetchText: (path) => app.env.fetchText(path),
    setHash: (hash) => {
      if (location.hash === hash || (!hash && !location.hash)) return;
      history.replaceState(null, '', hash || location.pathname + location.search);
    },
  });
  installLessonHook(l);
  return l;
}
