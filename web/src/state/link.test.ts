// Share links as untrusted input (url.ts, Store.openLink): caps on the
// compressed and the inflated trace (a decompression bomb stops early),
// damaged links, cancel, and a bad link naming what is wrong while the
// default run opens.
import { beforeAll, describe, expect, test } from 'vitest';
import { Engine } from '../engine/engine';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { LocalEngine, loadModule, scenario } from '../engine/testing';
import { act } from './actions';
import { Store } from './store';
import { scenarioEnv } from './testing';
import { compressTrace, encodeShare, inflateLink, LINK_MAX_COMPRESSED, LINK_MAX_TRACE, LinkError } from './url';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

function makeStore() {
  return new Store(new LocalEngine(new Engine(mod)), scenarioEnv());
}

describe('inflateLink: caps, damage, cancel', () => {
  test('round trip, with progress up to the whole code', async () => {
    const t = scenario('partial-churn');
    const seen: number[] = [];
    const out = await inflateLink(await compressTrace(t), { chunk: 64, progress: (done, total) => seen.push(done / total) });
    expect(out).toBe(t);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen[seen.length - 1]).toBe(1);
  });

  test('a decompression bomb stops at the inflated cap, long before inflating it all', async () => {
    const code = await compressTrace('c0 kmalloc 8 a\n'.repeat(1 << 20)); // 15 MiB -> a few KiB
    expect(code.length).toBeLessThan(64 << 10);
    let most = 0;
    const err = await inflateLink(code, { maxTrace: 1 << 20, chunk: 256, progress: (_d, _t, out) => (most = Math.max(most, out)) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LinkError);
    expect(String(err)).toMatch(/inflates to more than 1024 KiB/);
    expect(most).toBeLessThan(2 << 20);
    // the default cap
    await expect(inflateLink(code)).rejects.toThrow(`inflates to more than ${LINK_MAX_TRACE >> 10} KiB`);
  });

  test('a link over the compressed cap is refused before decoding', async () => {
    const huge = 'A'.repeat(Math.ceil((LINK_MAX_COMPRESSED * 4) / 3) + 8);
    await expect(inflateLink(huge)).rejects.toThrow(/too large: \d+ KiB compressed \(the limit is 512 KiB\)/);
  });

  test('damaged links say so', async () => {
    await expect(inflateLink('not base64!')).rejects.toThrow(/damaged \(not base64url\)/);
    await expect(inflateLink('AAAAAAAA_____')).rejects.toThrow(/damaged/);
  });

  test('cancel stops it', async () => {
    const code = await compressTrace(scenario('partial-churn'));
    let n = 0;
    await expect(inflateLink(code, { chunk: 16, progress: () => n++, cancelled: () => n > 0 })).rejects.toThrow('opening the link was cancelled');
  });

  test('links over the caps are never made', async () => {
    await expect(encodeShare({ trace: 'x'.repeat(LINK_MAX_TRACE + 1) })).rejects.toThrow(/too large for a share link/);
  });
});

describe('Store.openLink', () => {
  test('an unknown scenario is named; the default run opens', async () => {
    const store = makeStore();
    await store.loadScenarioList();
    await act(store, 'openLink', '#s=nonexistent&seq=3');
    const st = store.getState();
    expect(st.notice?.kind).toBe('link');
    expect(st.notice?.text).toBe('This link names a scenario "nonexistent" that does not exist. Opened the scenario basics instead.');
    expect(st.status).toBe('ready');
    expect(st.scenario).toBe('basics');
    expect(st.error).toBeNull();
  });

  test('a trace link opens at its position; a bomb is refused by name', async () => {
    const store = makeStore();
    await store.loadScenarioList();
    const t = scenario('partial-churn');
    await act(store, 'openLink', await encodeShare({ trace: t, seq: 9 }));
    expect(store.getState()).toMatchObject({ trace: t, scenario: null, notice: null, importing: null });
    expect(store.getState().frame?.seq).toBe(9);

    const bomb = await compressTrace('c0 kmalloc 8 a\n'.repeat(300_000)); // 4.3 MiB inflated
    await act(store, 'openLink', `#t=${bomb}`);
    const st = store.getState();
    expect(st.notice?.text).toMatch(/^This share link cannot be opened: the trace in this link is too large: it inflates to more than 4096 KiB \(the limit\)\. Opened the scenario basics instead\.$/);
    expect(st.scenario).toBe('basics');
    expect(st.importing).toBeNull();
  });

  test('cancelImport cancels the inflate of a link', async () => {
    const store = makeStore();
    await store.loadScenarioList();
    const code = await compressTrace(scenario('partial-churn').repeat(200));
    let cancelled = false;
    const unsub = store.subscribe(() => {
      const imp = store.getState().importing;
      if (imp && imp.updates > 0 && !cancelled) {
        cancelled = true;
        expect(imp.name).toBe('share link');
        void store.cancelImport();
      }
    });
    await act(store, 'openLink', `#t=${code}`);
    unsub();
    expect(cancelled).toBe(true);
    expect(store.getState().notice?.text).toMatch(/cancelled\. Opened the scenario basics instead\./);
  });
});

describe('live links: config, cache, A/B compare, and a link pasted over an open run', () => {
  test('shareHash carries the preset, switches, a chosen cache and the compare config; openLink restores them', async () => {
    const store = makeStore();
    await store.loadScenarioList();
    await act(store, 'openLink', '#s=basics');
    await act(store, 'setConfig', { preset: 'v6.19', switches: { fix1: '1' } });
    await act(store, 'seekSeq', 12);
    act(store, 'setCompare', { preset: 'v7.0-rc1', switches: { fix2: '1' } });
    const h = await store.shareHash();
    // url.ts: the B side travels as ab=1, bpreset, bsets ("fix2=1")
    expect(Object.fromEntries(new URLSearchParams(h.slice(1)))).toEqual({ s: 'basics', preset: 'v6.19', sets: 'fix1=1', ab: '1', bpreset: 'v7.0-rc1', bsets: 'fix2=1', seq: '12' });
    const other = makeStore();
    await other.loadScenarioList();
    await act(other, 'openLink', h);
    const st = other.getState();
    expect([st.scenario, st.config.preset, st.config.switches, st.frame?.seq]).toEqual(['basics', 'v6.19', { fix1: '1' }, 12]);
    expect(st.compare).toEqual({ preset: 'v7.0-rc1', seed: '', switches: { fix2: '1' } });
    // a link without ab=1 turns compare off
    await act(other, 'openLink', '#s=basics&seq=2');
    expect(other.getState().compare).toBeNull();
  });

  test('with no fallback, a bad link is named and the open run stays where it was', async () => {
    const store = makeStore();
    await store.loadScenarioList();
    await act(store, 'openLink', '#s=basics&seq=5');
    const frame = store.getState().frame;
    await act(store, 'openLink', '#s=nope&seq=1', null);
    const st = store.getState();
    expect(st.notice?.text).toBe('This link names a scenario "nope" that does not exist. The current run stays open.');
    expect(st.frame).toBe(frame);
    expect(st.scenario).toBe('basics');
  });
});
