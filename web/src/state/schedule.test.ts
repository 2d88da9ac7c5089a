// The schedule and the steps chosen by hand in the store (issue 11): the
// schedule is a set (configSets / parseSets, words and all), the picker's
// action runs the trace again under it, "step this CPU" records the step
// in the run, and both travel in share links (url.ts) and come back.
import { beforeAll, describe, expect, test } from 'vitest';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { Engine } from '../engine/engine';
import { LocalEngine, loadModule } from '../engine/testing';
import { act } from './actions';
import { sideB } from './compare';
import { configOf, configSets, normalSchedule, parseSets, Store } from './store';
import { scenarioEnv } from './testing';
import { encodeShare, parseShare } from './url';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

function makeStore() {
  const env = scenarioEnv();
  const fetchText = env.fetchText;
  env.fetchText = async (path) =>
    path === 'scenarios/index.json'
      ? JSON.stringify(['basics', 'race-17c38c88294d'].map((id) => ({ id, file: `${id}.trace`, description: '' })))
      : fetchText(path);
  return new Store(new LocalEngine(new Engine(mod)), env);
}

describe('the schedule is a set', () => {
  test('configSets writes it, parseSets reads it back with its words', () => {
    const c = { preset: 'v6.19', seed: '7', switches: { fix1: '1' }, schedule: 'random seed=5' };
    const sets = configSets(c);
    expect(sets).toBe('fix1=1\nseed=7\nschedule=random seed=5');
    expect(configOf('v6.19', sets)).toEqual(c);
    expect(parseSets('schedule =  random   seed=9 ').schedule).toBe('random seed=9');
    expect(parseSets('fix1=1')).toEqual({ seed: '', switches: { fix1: '1' } });
    expect(normalSchedule(' timed ')).toBe('timed');
    expect(configSets({ preset: '', seed: '', switches: {}, schedule: '' })).toBe('');
  });

  test('share links carry the schedule (in sets) and the hand steps', async () => {
    const hash = await encodeShare({ scenario: 'race', sets: 'schedule=random seed=5', hand: '@510 c0x6 c1x6', seq: 522 });
    expect(hash).toContain('hand=%40510+c0x6+c1x6');
    expect(parseShare(hash)).toEqual({ scenario: 'race', sets: 'schedule=random seed=5', hand: '@510 c0x6 c1x6', seq: 522 });
  });
});

describe('the store: schedule picker, step this CPU', () => {
  test('setSchedule runs the trace again under the schedule; A/B side B follows it', async () => {
    const store = makeStore();
    await store.loadScenarioList();
    await store.loadScenario('race-17c38c88294d');
    expect(store.getState().frame!.snapshot.config.schedule).toEqual({ kind: 'explicit', steps: 4 });
    await act(store, 'setSchedule', 'round-robin');
    let st = store.getState();
    expect(st.config.schedule).toBe('round-robin');
    expect(st.frame!.snapshot.config.schedule?.kind).toBe('round-robin');
    expect(st.frame!.seq).toBe(0);
    await act(store, 'setSchedule', 'random  seed=4');
    st = store.getState();
    expect(st.config.schedule).toBe('random seed=4');
    expect(st.frame!.snapshot.config.schedule).toEqual({ kind: 'random', seed: '4', steps: 4 });
    expect(await store.shareHash()).toContain(`sets=${encodeURIComponent('schedule=random seed=4').replace(/%20/g, '+')}`);
    store.setCompare({ preset: 'v6.19' });
    expect(sideB(store.getState())).toEqual({ preset: 'v6.19', seed: '', switches: {}, schedule: 'random seed=4' });
    store.setCompare(null);
    // back to the trace's own
    await act(store, 'setSchedule', '');
    expect(store.getState().frame!.snapshot.config.schedule?.kind).toBe('explicit');
  });

  test('stepCpu records the step; the share link replays it; a refused step says why', async () => {
    const store = makeStore();
    await store.loadScenarioList();
    await store.loadScenario('race-17c38c88294d', { config: { preset: 'v7.0-17c38c88294d', seed: '', switches: {}, schedule: 'serial' } });
    await act(store, 'stepCpu', 1);
    let st = store.getState();
    expect(st.handNote).toEqual({ kind: 'refused', why: 'waits', cpu: 1 });
    expect(st.hand).toBe('');
    await act(store, 'jumpToOp', 63);
    for (let i = 0; i < 60 && store.getState().frame!.event?.kind !== 'cmpxchg'; i++) await act(store, 'stepCpu', 0);
    for (let i = 0; i < 60 && !store.getState().frame!.stopped; i++) await act(store, 'stepCpu', 1);
    st = store.getState();
    expect(st.frame!.stopped).toBe(true);
    expect(st.frame!.runError).toContain('list_del corruption');
    expect(st.handNote).toBeNull();
    expect(st.hand).toMatch(/^@\d+ c0x\d+ c1x\d+$/);
    expect(st.meta!.seqTotal).toBe(st.frame!.seq);
    const hash = await store.shareHash();
    expect(parseShare(hash).hand).toBe(st.hand);

    // the link in another store: the same run, at the same step
    const other = makeStore();
    await other.loadScenarioList();
    await other.openLink(hash);
    const o = other.getState();
    expect(o.hand).toBe(st.hand);
    expect(o.config.schedule).toBe('serial');
    expect(o.frame!.seq).toBe(st.frame!.seq);
    expect(JSON.stringify(o.frame!.snapshot)).toBe(JSON.stringify(st.frame!.snapshot));

    // restart keeps the hand steps (the same run); another config drops them
    await act(other, 'restart');
    expect(other.getState().hand).toBe(st.hand);
    await act(other, 'setSchedule', 'round-robin');
    expect(other.getState().hand).toBe('');
  });

  test('a link with unreadable or unrunnable hand steps opens without them and says so', async () => {
    const store = makeStore();
    await store.loadScenarioList();
    await store.openLink('#s=race-17c38c88294d&sets=schedule%3Dserial&hand=nonsense');
    expect(store.getState().status).toBe('ready');
    expect(store.getState().handNote).toEqual({ kind: 'badLink', why: expect.stringMatching(/not a step/) });
    await store.openLink('#s=race-17c38c88294d&sets=schedule%3Dserial&hand=%400+c1');
    expect(store.getState().handNote).toEqual({ kind: 'dropped', seq: 0 });
    expect(store.getState().hand).toBe('');
  });

  test('the lanes window: the frame carries that many events', async () => {
    const store = makeStore();
    await store.loadScenarioList();
    await store.loadScenario('basics');
    await act(store, 'seekSeq', 50);
    expect(store.getState().frame!.lanes).toHaveLength(50);
    await act(store, 'setLanesWindow', 20);
    expect(store.getState().frame!.lanes).toHaveLength(20);
    expect(store.getState().frame!.lanes![19].seq).toBe(49);
    await act(store, 'setLanesWindow', 0);
    expect(store.getState().frame!.lanes).toBeUndefined();
  });
});
