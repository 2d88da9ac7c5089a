import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { EngineClient } from './engine/client';
import { installShortcuts } from './state/keys';
import { Store } from './state/store';
import { decodeShare, type ShareState } from './state/url';
import { parseSets } from './state/store';
import { installTestHook } from './testHook';
import { openLessonLinkAtBoot } from './lessons/mount';
import { App } from './views/App';
import { StoreContext } from './views/hooks';
import './styles.css';

const DEFAULT_SCENARIO = 'basics';

async function boot(): Promise<void> {
  const base = new URL(import.meta.env.BASE_URL, location.href);
  const store = new Store(EngineClient.create(new URL('wasm/', base).href), {
    fetchText: async (path) => {
      const r = await fetch(new URL(path, base));
      if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
      return r.text();
    },
    fetchBlob: async (path) => {
      const r = await fetch(new URL(path, base));
      if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
      return r.blob();
    },
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (h) => window.clearTimeout(h as number),
    now: () => performance.now(),
  });
  const params = new URLSearchParams(location.search);
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  if (params.get('anim') === '0' || reduced) store.setAnim(0);
  installTestHook(store);
  installShortcuts(store);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <StoreContext.Provider value={store}>
        <App />
      </StoreContext.Provider>
    </StrictMode>,
  );
  await store.loadScenarioList();
  void store.loadSampleList();
  void store.refreshStored();
  // a lesson link (#lesson=ID&stop=N): the lesson player opens its run
  if (await openLessonLinkAtBoot(store)) return;
  let share: ShareState = {};
  try {
    share = await decodeShare(location.hash);
  } catch (e) {
    console.warn('bad share link', e);
  }
  const { seed, switches } = parseSets(share.sets ?? '');
  const config = { preset: share.preset ?? '', seed, switches };
  if (share.trace !== undefined) await store.openTrace(share.trace, { scenario: null, config, seq: share.seq });
  else await store.loadScenario(share.scenario ?? DEFAULT_SCENARIO, { config, seq: share.seq });
}

void boot();
