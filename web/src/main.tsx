import { base, engine } from './early';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installShortcuts } from './state/keys';
import { DEFAULT_SCENARIO, Store } from './state/store';
import { parseShare } from './state/url';
import { decodeLessonLink } from './lessons/link';
import { initLang } from './i18n';
import { openLessonLinkAtBoot } from './lessons/mount';
import { App } from './views/App';
import { loadImportSummary } from './views/TracesBody';
import { loadLegend } from './views/Legend';
import { StoreContext, lateDraws } from './views/hooks';
import './styles.css';

/** A data file from the server; an HTTP error is the path's error. */
async function fetchOk(path: string): Promise<Response> {
  const r = await fetch(new URL(path, base));
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return r;
}

/** A data file's text; a server's SPA fallback answering a missing one
 * with index.html is a miss. */
async function fetchText(path: string): Promise<string> {
  const r = await fetchOk(path);
  if (!path.endsWith('.html') && /text\/html/.test(r.headers.get('content-type') ?? '')) throw new Error(`${path}: not found`);
  return r.text();
}

/** Texts asked for before the app asks (the address's scenario), each
 * handed out once. */
const early = new Map<string, Promise<string>>();

/** The scenario the address opens, fetched beside the scenario list that
 * openLink() waits for first (the two were one after the other). */
function fetchLinkedScenarioEarly(hash: string): void {
  if (decodeLessonLink(hash)) return;
  const share = parseShare(hash);
  if (share.code !== undefined) return;
  const path = `scenarios/${share.scenario ?? DEFAULT_SCENARIO}.trace`;
  const text = fetchText(path);
  text.catch(() => undefined); // unclaimed (a link to no such scenario): no unhandled rejection
  early.set(path, text);
}

async function boot(): Promise<void> {
  fetchLinkedScenarioEarly(location.hash);
  await initLang(); // <html lang> and the catalog before the first render
  const store = new Store(engine, {
    fetchText: (path) => {
      const text = early.get(path);
      early.delete(path);
      return text ?? fetchText(path);
    },
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
  void store.refreshStored();
  // a lesson link (#lesson=ID&stop=N): the lesson player opens its run
  if (await openLessonLinkAtBoot(store)) return;
  // a share link (or none: the default scenario)
  await store.openLink(location.hash);
}

void boot();
