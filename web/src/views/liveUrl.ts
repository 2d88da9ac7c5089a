// The live URL: the address follows the run (scenario or trace, preset,
// switches, cache, position, A/B compare) on every change, with
// history.replaceState (no history entry per step), and a link pasted into
// the address bar of the same tab (hashchange) is opened; a bad one says
// why and leaves the current run open (Store.openLink with no fallback).
// While a lesson is played the lesson player owns the hash (#lesson=...).
import { useEffect } from 'react';
import { decodeLessonLink } from '../lessons/link';
import { lessonsFor } from '../lessons/mount';
import type { Store } from '../state/store';
import { parseShare } from '../state/url';

const WRITE_MS = 60;

export function useLiveUrl(store: Store, on = true): void {
  useEffect(() => {
    if (!on) return;
    const lessons = lessonsFor(store);
    let written = location.hash;
    let token = 0;
    const lessonOwns = () => lessons.getState().current !== null || !!decodeLessonLink(location.hash);
    const sync = async () => {
      const st = store.getState();
      if (st.status !== 'ready' || !st.frame || st.importing || lessonOwns()) return;
      const t = ++token;
      let hash: string;
      try {
        hash = await store.shareHash();
      } catch {
        return; // too large for a link: the address keeps the last one
      }
      if (t !== token || lessonOwns()) return;
      written = hash;
      if (location.hash !== hash) history.replaceState(history.state, '', location.pathname + location.search + hash);
    };
    const onHash = () => {
      // not a run's link (an in-page anchor such as the skip link's #main)
      const link = parseShare(location.hash);
      if (location.hash === written || decodeLessonLink(location.hash) || (link.scenario === undefined && link.code === undefined)) return;
      written = location.hash;
      void store.openLink(location.hash, null);
    };
    // at most one write per WRITE_MS (browsers throttle a page that
    // replaces its URL hundreds of times a second); the last state wins
    let timer: ReturnType<typeof setTimeout> | null = null;
    const soon = () => {
      if (store.getState().playing || timer !== null) return; // pause writes it
      timer = setTimeout(() => {
        timer = null;
        void sync();
      }, WRITE_MS);
    };
    const unsub = store.subscribe(soon);
    const unsubL = lessons.subscribe(soon);
    window.addEventListener('hashchange', onHash);
    void sync();
    return () => {
      unsub();
      unsubL();
      if (timer !== null) clearTimeout(timer);
      window.removeEventListener('hashchange', onHash);
    };
  }, [store, on]);
}
