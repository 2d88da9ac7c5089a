import { beforeAll, describe, expect, test } from 'vitest';
import { Engine } from '../engine/engine';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { EngineCrash, type EngineApi } from '../engine/client';
import { manifest as readManifest } from '../../../core/wasm/slubviz-api';
import { LocalEngine, loadModule, scenario } from '../engine/testing';
import type { Manifest } from '../engine/types';
import { act, ACTIONS, SHORTCUTS, type Action } from './actions';
import { findShortcut } from './keys';
import { LESSON_ACTIONS, lessonAct, LessonStore } from '../lessons/store';
import { configSets, parseSets, SPEEDS, Store, type Env } from './store';
import { decodeShare } from './url';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

function makeStore(engine: EngineApi = new LocalEngine(new Engine(mod)), extra: Partial<Env> = {}) {
  const timers: (() => void)[] = [];
  let clock = 0;
  const store = new Store(engine, {
    ...extra,
    fetchText: async (path) => {
      const m = /^scenarios\/(.+)\.trace$/.exec(path);
      if (m) return scenario(m[1]);
      if (path === 'scenarios/index.json') return JSON.stringify([{ id: 'basics', file: 'basics.trace', description: '' }]);
      throw new Error(`no ${path}`);
    },
    setTimeout: (fn) => {
      timers.push(fn);
      return timers.length;
    },
    clearTimeout: () => {},
    now: () => clock,
  });
  /** runs the pending play timer, if any */
  const tick = async () => {
    clock += 100;
    const fn = timers.shift();
    fn?.();
    await new Promise((r) => setTimeout(r, 0));
    await store.idle();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { store, tick, timers };
}

describe('the vocabulary comes from the core', () => {
  test('loadManifest: the presets and switches are svz_manifest_json\'s, in its order', async () => {
    const { store } = makeStore();
    expect(store.getState().presets).toEqual([]);
    await store.loadManifest();
    const m = readManifest(mod);
    const st = store.getState();
    expect(st.presets).toEqual(m.presets);
    expect(st.switches).toEqual(m.switches);
    expect(st.importFormats).toEqual(m.import_formats);
    expect(st.skipReasons).toEqual(m.import_skip_reasons);
    // the two the hand-typed lists had lost
    expect(st.presets.map((p) => p.name)).toContain('v7.0-17c38c88294d');
    expect(st.switches.map((s) => s.name)).toContain('cpu_partial_free');
  });

  test('a fake engine\'s manifest is all the store offers', async () => {
    const fake: Pick<Manifest, 'presets' | 'switches' | 'import_formats' | 'import_skip_reasons'> = {
      presets: [{ name: 'vX', description: 'made up', settings: 'era=sheaves' }],
      switches: [{ name: 'only_switch', aliases: [], kind: 'bool', choices: ['0', '1'], what: '' }],
      import_formats: [{ name: 'fmt', aliases: [], label: 'a format' }],
      import_skip_reasons: [{ name: 'why', text: 'because' }],
    };
    const engine: EngineApi = {
      lastMs: 0,
      call: (async (body: { type: string }) => {
        if (body.type !== 'manifest') throw new Error(`unexpected ${body.type}`);
        return fake;
      }) as EngineApi['call'],
    };
    const store = new Store(engine, { fetchText: async () => '', setTimeout: () => 0, clearTimeout: () => {}, now: () => 0 });
    await store.loadManifest();
    expect(store.getState().presets).toEqual(fake.presets);
    expect(store.getState().switches).toEqual(fake.switches);
    expect(store.getState().importFormats).toEqual(fake.import_formats);
    expect(store.getState().skipReasons).toEqual(fake.import_skip_reasons);
  });

  test('loadManifest asks a restarted engine once, and says when it cannot', async () => {
    const env = { fetchText: async () => '', setTimeout: () => 0, clearTimeout: () => {}, now: () => 0 };
    const answers: (() => unknown)[] = [
      () => { throw new EngineCrash('trap'); },
      () => readManifest(mod),
    ];
    const flaky: EngineApi = { lastMs: 0, call: (async () => answers.shift()!()) as EngineApi['call'] };
    const s1 = new Store(flaky, env);
    await s1.loadManifest();
    expect(s1.getState().presets).toEqual(readManifest(mod).presets);
    expect(s1.getState().error).toBeNull();
    const broken: EngineApi = { lastMs: 0, call: (async () => { throw new Error('no wasm'); }) as EngineApi['call'] };
    const s2 = new Store(broken, env);
    await s2.loadManifest();
    expect(s2.getState().presets).toEqual([]);
    expect(s2.getState().error).toMatch(/presets and switches could not be read: no wasm/);
  });

  test('the race preset opens, and its switch shows in the snapshot', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    await store.setConfig({ preset: 'v7.0-17c38c88294d' });
    const st = store.getState();
    expect(st.error).toBeNull();
    expect(st.frame?.snapshot.config.preset).toBe('v7.0-17c38c88294d');
    expect(st.frame?.snapshot.config.switches.cpu_partial_free).toBe(true);
  });

  test('a preset\'s former name runs it, and the config then names it as it is now', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    // v7.1-candidate carried seeds 000 and 002, which mainline took for v7.2
    await store.setConfig({ preset: 'v7.1-candidate' });
    const st = store.getState();
    expect(st.error).toBeNull();
    expect(st.frame?.snapshot.config.preset).toBe('v7.2-candidate');
    expect(st.frame?.snapshot.config.switches.deferred_freelist).toBe(true);
    expect(st.config.preset).toBe('v7.2-candidate');
    expect(st.presets.map((p) => p.name)).not.toContain('v7.1-candidate');
  });
});

describe('store actions', () => {
  test('loadScenario, stepForward, stepBack', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    const s = store.getState();
    expect(s.status).toBe('ready');
    expect(s.scenario).toBe('basics');
    expect(s.frame?.seq).toBe(0);
    expect(s.selectedCache).toBe(0);
    await act(store, 'stepForward');
    await act(store, 'stepForward');
    expect(store.getState().frame?.seq).toBe(2);
    await act(store, 'stepBack');
    expect(store.getState().frame?.seq).toBe(1);
    expect(store.getState().frame?.event?.seq).toBe(0);
  });

  test('stepOp, opBack, jumpToOp, toEnd, toStart', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    await act(store, 'stepOp');
    expect(store.getState().frame?.opsDone).toBe(1);
    await act(store, 'stepForward');
    await act(store, 'opBack');
    expect(store.getState().frame?.opsDone).toBe(1);
    expect(store.getState().frame?.inflight).toBe(0);
    await act(store, 'opBack');
    expect(store.getState().frame?.seq).toBe(0);
    await act(store, 'jumpToOp', 7);
    expect(store.getState().frame?.opsDone).toBe(7);
    await act(store, 'toEnd');
    expect(store.getState().frame?.opsDone).toBe(store.getState().meta?.opsTotal);
    await act(store, 'toStart');
    expect(store.getState().frame?.seq).toBe(0);
  });

  test('runToBreakpoint records the hit', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    await act(store, 'runToBreakpoint', { kind: 'new_slab' });
    const s = store.getState();
    expect(s.frame?.event?.kind).toBe('new_slab');
    expect(s.lastHit).toEqual({ bp: { kind: 'new_slab' }, seq: s.frame?.seq, found: true });
    expect(s.breakpoint).toEqual({ kind: 'new_slab' });
  });

  test('play steps on each tick until paused; speeds', async () => {
    const { store, tick } = makeStore();
    await act(store, 'loadScenario', 'basics');
    store.setSpeed(10);
    store.play();
    expect(store.getState().playing).toBe(true);
    await tick();
    await tick();
    expect(store.getState().frame?.seq).toBe(2);
    store.pause();
    expect(store.getState().playing).toBe(false);
    store.faster();
    expect(store.getState().speed).toBe(SPEEDS[SPEEDS.indexOf(10) + 1]);
    store.slower();
    store.slower();
    expect(store.getState().speed).toBe(SPEEDS[SPEEDS.indexOf(10) - 1]);
  });

  test('playing asks for the next batch once the last one is drawn (an animation frame), with the steps the speed owes', async () => {
    const local = new LocalEngine(new Engine(mod));
    let inFlight = 0;
    let mostInFlight = 0;
    const batches: number[] = [];
    const counting: EngineApi = {
      lastMs: 0,
      call: (async (body: Parameters<EngineApi['call']>[0], ...rest: unknown[]) => {
        if (body.type !== 'step') return local.call(body, ...(rest as []));
        batches.push(body.count);
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        try {
          return await local.call(body);
        } finally {
          inFlight--;
        }
      }) as EngineApi['call'],
    };
    const frames: (() => void)[] = [];
    const { store, tick, timers } = makeStore(counting, { frame: (fn) => void frames.push(fn) });
    await act(store, 'loadScenario', 'basics');
    store.setSpeed(50);
    store.play();
    for (let i = 0; i < 3; i++) {
      await tick(); // 100 ms at 50 steps/s: 5 steps owed
      // drawn; the next batch waits for the animation frame
      expect(timers).toHaveLength(0);
      expect(frames).toHaveLength(1);
      frames.shift()!();
      expect(timers).toHaveLength(1);
    }
    expect(batches).toEqual([5, 5, 5]);
    expect(mostInFlight).toBe(1);
    expect(store.getState().frame?.seq).toBe(15);
    // a frame waited for before a pause and play belongs to the old play: one loop only
    await tick();
    expect(frames).toHaveLength(1);
    store.pause();
    store.play();
    expect(timers).toHaveLength(1);
    frames.shift()!();
    expect(timers).toHaveLength(1);
    store.pause();
  });

  test('setConfig restarts the run with the new config', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    await act(store, 'jumpToOp', 3);
    await act(store, 'setConfig', { preset: 'v7.0-rc1', seed: '5', switches: { fix1: '1' } });
    const s = store.getState();
    expect(s.frame?.seq).toBe(0);
    expect(s.frame?.snapshot.config.preset).toBe('v7.0-rc1');
    expect(s.frame?.snapshot.config.switches.seed).toBe('5');
    expect(s.frame?.snapshot.config.switches.fix1).toBe(true);
    expect(configSets(s.config)).toBe('fix1=1\nseed=5');
    expect(parseSets('fix1=1\nseed=5')).toEqual({ seed: '5', switches: { fix1: '1' } });
  });

  test('free play appends ops, re-opens and runs to the end', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    const total = store.getState().meta!.opsTotal;
    const h = await act(store, 'freeAlloc');
    expect(h).toBe('fp0');
    let s = store.getState();
    expect(s.meta?.opsTotal).toBe(total + 1);
    expect(s.frame?.opsDone).toBe(total + 1);
    expect(s.trace).toMatch(/# free play\nc0 alloc demo-64 fp0\n$/);
    expect(store.liveHandles().map((x) => x.handle)).toEqual(['fp0']);
    await act(store, 'freeFree');
    s = store.getState();
    expect(s.frame?.opsDone).toBe(total + 2);
    expect(s.frame?.runError).toBe('');
    expect(store.liveHandles()).toEqual([]);
  });

  test('shareHash round trip', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    await act(store, 'seekSeq', 17);
    let hash = await store.shareHash();
    expect(await decodeShare(hash)).toEqual({ scenario: 'basics', seq: 17 });
    await act(store, 'freeAlloc');
    hash = await store.shareHash();
    const d = await decodeShare(hash);
    expect(d.trace).toBe(store.getState().trace);
    expect(d.scenario).toBeUndefined();
  });
});

describe('actions: one list for buttons, keys and the test hook (actions.ts)', () => {
  test('every action is a store method; the keyboard table is the actions\' keys', () => {
    const { store } = makeStore();
    const names = ACTIONS.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(typeof (store as unknown as Record<string, unknown>)[n], n).toBe('function');
    const keys = SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(ACTIONS.flatMap((a: Action) => [...(a.keys ?? []), ...(a.presets ?? []).flatMap((p) => p.keys)]));
  });

  test('a key runs its action only when the action is enabled; the hook runs it by name', async () => {
    const { store } = makeStore();
    const key = (k: string) => findShortcut({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, target: null } as unknown as KeyboardEvent)!;
    // no trace yet: Step is disabled, the key does nothing
    await key('ArrowRight').run(store);
    expect(store.getState().frame).toBeNull();
    await act(store, 'loadScenario', 'basics');
    await key('ArrowRight').run(store);
    await store.idle();
    expect(store.getState().frame?.seq).toBe(1);
    await key('End').run(store);
    await store.idle();
    expect(store.getState().frame?.opsDone).toBe(store.getState().meta!.opsTotal);
    await expect(act(store, 'noSuchAction' as never)).rejects.toThrow(/no action noSuchAction/);
  });

  test('the lesson player\'s actions are its store\'s methods, run by name the same way', async () => {
    const { store } = makeStore();
    const lessons = new LessonStore(store, { call: async () => null as never }, { all: async () => [], put: async () => {}, clear: async () => {} } as never, {
      fetchText: async () => {
        throw new Error('offline');
      },
    });
    for (const a of LESSON_ACTIONS) expect(typeof (lessons as unknown as Record<string, unknown>)[a.name], a.name).toBe('function');
    // showList opens the column; its index cannot be fetched here: the error is the store's
    await lessonAct(lessons, 'showList');
    expect(lessons.getState()).toMatchObject({ open: true, error: 'offline' });
    await lessonAct(lessons, 'close');
    expect(lessons.getState().open).toBe(false);
    await expect(lessonAct(lessons, 'nope' as never)).rejects.toThrow(/no lesson action nope/);
  });
});

