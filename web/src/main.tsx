import { engine, fetchOk, fetchText } from './early';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installShortcuts } from './state/keys';
import { Store } from './state/store';
import { initLang } from './i18n';
import { openLessonLinkAtBoot } from './lessons/mount';
import { App } from './views/App';
import { loadImportSummary } from './views/TracesBody';
import { loadLegend } from './views/Legend';
import { StoreContext, lateDraws } from './views/hooks';
import './styles.css';

async function boot(): Promise<void> {
  await initLang(); // <html lang> and the catalog before the first render
  const store = new Store(engine, {
    fetchText,
    fetchBlob: async (path) => (await fetchOk(path)).blob(),
    frame: lateDraws.afterDrawn,
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (h) => window.clearTimeout(h as number),
    now: () => performance.now(),
    importResultCode: loadImportSummary,
  });
  const params = new URLSearchParams(location.search);
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  if (params.get('anim') === '0' || reduced) store.setAnim(0);
  // the test hook and the test-only log generator are a chunk of their
  // own, out of the main one; tests wait for the hook, so nothing they
  // read depends on when that chunk arrives
  void import('./testHook').then((m) => m.installTestHook(store));
  installShortcuts(store);
  void store.loadManifest();
  const firstRun = openFirstRun(store);
  // the first render waits for the first run's frame (or its error), up to
  // FIRST_RENDER_WAIT_MS: one render of the drawn page costs less than a
  // render of the empty one and the re-renders as the manifest, the run and
  // its frame arrive, and the worker loads and opens the run meanwhile
  // (issue 14, cold load: 850 -> 675 ms median here). Until then the page
  // shows index.html's loading bar.
  // and for the legend's code (a chunk of its own), so that the first
  // render draws the whole page
  await Promise.all([untilFirstFrame(store, FIRST_RENDER_WAIT_MS), loadLegend().catch(() => undefined)]);
  const root = document.getElementById('root')!;
  root.removeAttribute('aria-busy');
  createRoot(root).render(
    <StrictMode>
      <StoreContext.Provider value={store}>
        <App />
      </StoreContext.Provider>
    </StrictMode>,
  );
  await firstRun;
}

/** The longest the first render waits for the first run's frame: a big
 * run (a share link, a lesson) shows its progress on the page after that. */
const FIRST_RENDER_WAIT_MS = 1000;

function untilFirstFrame(store: Store, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const settled = () => {
      const { status } = store.getState();
      return status === 'ready' || status === 'error';
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = store.subscribe(() => settled() && done());
    if (settled()) done();
  });
}

/** The scenario list, then the run of the address: a lesson's, a share
 * link's, or the default scenario. */
async function openFirstRun(store: Store): Promise<void> {
  await store.loadScenarioList();
  void store.loadSampleList();
  try {
    // a lesson link (#lesson=ID&stop=N): the lesson player opens its run
    if (await openLessonLinkAtBoot(store)) return;
    // a share link (or none: the default scenario)
    await store.openLink(location.hash);
  } finally {
    // the stored traces' list after the run: the worker answers requests
    // in turn, and its IndexedDB read (13-50 ms) came before the 'open'
    // the first frame waits for
    void store.refreshStored();
  }
}

void boot();
