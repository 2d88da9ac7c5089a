// The worker's import path under Node: the streaming import in chunks,
// the summary, the v1 text held and stored, replay by ref, the storage,
// cancel, junk; and the store's actions over it (summary before replay,
// replay, presets, free play, export, share links of small imports).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { act } from '../state/actions';
import { Store } from '../state/store';
import { decodeShare } from '../state/url';
import { Backend } from './backend';
import type { ImportOk } from './protocol';
import { SlubvizSession, type SlubvizModule } from '../../../core/wasm/slubviz-api';
import { MemoryStorage } from './storage';
import { synthFtrace, synthFtraceBlob } from './synth';
import { LocalEngine, loadModule, ROOT, scenario } from './testing';

const DATA = join(ROOT, 'core/tests/data/ftrace');
const SAMPLES = readdirSync(DATA).filter((f) => /\.(txt|rep)$/.test(f)).sort();

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

function backend(chunk?: number) {
  const storage = new MemoryStorage();
  return { b: new Backend(mod, storage, { chunk }), storage };
}

describe('Backend: streaming import', () => {
  test.each(SAMPLES)('%s: chunked import == svz_open_any; v1 held, stored, replayed', async (file) => {
    const text = readFileSync(join(DATA, file), 'utf8');
    const { b, storage } = backend(97); // lines straddle the chunks
    const progress: number[] = [];
    const r = await b.importBlob(new Blob([text]), file, '', true, (done) => progress.push(done));
    expect(r.ok, r.ok ? '' : r.error).toBe(true);
    const ok = r as ImportOk;
    const direct = SlubvizSession.openAny(mod, text);
    const summary = JSON.parse(direct.importSummaryJson());
    expect(ok.meta.summary).toEqual(summary);
    expect(ok.meta.summaryText).toBe(direct.importSummary());
    const v1 = direct.exportV1();
    direct.runAll();
    const stats = direct.statsText();
    direct.close();
    expect(progress[progress.length - 1]).toBe(new Blob([text]).size);
    expect(ok.stored).toBe(true);
    expect(await storage.text(ok.meta.id)).toBe(v1);
    expect((await storage.list()).map((m) => m.name)).toEqual([file]);
    // replay by ref: the same run as the import's own session
    const open = await b.handle({ type: 'open', trace: '', ref: ok.ref, preset: '', sets: '' });
    expect(open.meta.opsTotal).toBe(summary.ops);
    b.engine.session.runAll();
    expect(b.engine.session.statsText()).toBe(stats);
  });

  test('junk: nothing imported, the reason with a line number; the module keeps working', async () => {
    const { b } = backend();
    const r = await b.importBlob(new Blob(['hello\n\u0000\u0001\u0002 binary\nnot a trace\n']), 'junk.bin', '', true);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.cancelled).toBe(false);
    expect(r.error).toMatch(/line 1/);
    const empty = await b.importBlob(new Blob(['']), 'empty.txt', '', true);
    expect(empty.ok).toBe(false);
    expect((await b.storage.list()).length).toBe(0);
    const open = await b.handle({ type: 'open', trace: scenario('basics'), preset: '', sets: '' });
    expect(open.meta.opsTotal).toBeGreaterThan(0);
  });

  test('a partly bad file imports the good lines and lists the bad ones', async () => {
    const { b } = backend();
    const good = readFileSync(join(DATA, 'ftrace-kmem-v5.4-x86_64-vmware-liulangrenaaa.txt'), 'utf8');
    const r = await b.importBlob(new Blob([good + 'garbage line\n           <...>-1  [000] ....  1.0: kmalloc: call_si\n']), 'mixed.txt', '', false);
    expect(r.ok).toBe(true);
    const s = (r as ImportOk).meta.summary;
    expect(s.bad_lines).toBe(2);
    expect(s.errors.map((e) => e.line)).toEqual([good.split('\n').length, good.split('\n').length + 1]);
    expect((r as ImportOk).stored).toBe(false);
  });

  test('progress through a large log, and cancel between chunks', async () => {
    const { b } = backend(64 << 10);
    const blob = synthFtraceBlob(20_000);
    const seen: { done: number; lines?: number }[] = [];
    const r = await b.importBlob(blob, 'synth.txt', 'ftrace', false, (done, _t, _w, lines) => seen.push({ done, lines }));
    expect(r.ok).toBe(true);
    expect((r as ImportOk).meta.lines).toBe(20_000);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[seen.length - 1].lines).toBe(20_000);

    const cancel = new AbortController();
    const p = b.importBlob(blob, 'synth.txt', '', true, () => cancel.abort(), cancel.signal);
    const c = await p;
    expect(c.ok).toBe(false);
    expect(!c.ok && c.cancelled).toBe(true);
    expect((await b.storage.list()).length).toBe(0);
    // the next import runs
    expect((await b.importBlob(new Blob([[...synthFtrace(50)].join('')]), 'small', '', false)).ok).toBe(true);
  });

  test('stored traces: list, open by id after a "reload" (a new backend), delete', async () => {
    const storage = new MemoryStorage();
    const b1 = new Backend(mod, storage);
    const text = readFileSync(join(DATA, 'trace-cmd-report.txt'), 'utf8');
    const r = (await b1.importBlob(new Blob([text]), 'tc.txt', '', true)) as ImportOk;
    const b2 = new Backend(mod, storage);
    const list = await b2.handle({ type: 'storedList' });
    expect(list.map((m) => m.id)).toEqual([r.meta.id]);
    const o = await b2.handle({ type: 'storedOpen', storedId: r.meta.id });
    expect(o.meta.summary.format).toBe(r.meta.summary.format);
    const open = await b2.handle({ type: 'open', trace: '', ref: o.ref, preset: 'v6.19', sets: '' });
    expect(open.frame.snapshot.config.preset).toBe('v6.19');
    expect(await b2.handle({ type: 'storedDelete', storedId: r.meta.id })).toEqual([]);
    await expect(b2.handle({ type: 'storedOpen', storedId: r.meta.id })).rejects.toThrow(/no stored trace/);
  });
});

describe('store: import actions', () => {
  function makeStore() {
    const storage = new MemoryStorage();
    const store = new Store(new LocalEngine(new Backend(mod, storage)), {
      fetchText: async (path) => {
        const m = /^scenarios\/(.+)\.trace$/.exec(path);
        if (m) return scenario(m[1]);
        const s = /^samples\/(.+)$/.exec(path);
        if (s) return readFileSync(join(DATA, s[1]), 'utf8');
        throw new Error(`no ${path}`);
      },
      setTimeout: () => 0,
      clearTimeout: () => {},
      now: () => 0,
    });
    return { store, storage };
  }

  test('sample -> summary (not opened) -> replay -> preset change keeps the trace -> free play -> export', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    const r = (await act(store, 'importSample', 'ftrace-kmem-v5.4-changbin-pS-mixed.txt')) as ImportOk;
    expect(r.ok).toBe(true);
    let s = store.getState();
    expect(s.importView?.open).toBe(false);
    expect(s.scenario).toBe('basics'); // the summary comes before the replay
    expect(s.stored.map((m) => m.name)).toEqual(['ftrace-kmem-v5.4-changbin-pS-mixed.txt']);
    await act(store, 'replayImport');
    s = store.getState();
    expect(s.status).toBe('ready');
    expect(s.traceRef).toBe(r.ref);
    expect(s.scenario).toBeNull();
    expect(s.importView?.open).toBe(true);
    expect(s.meta?.opsTotal).toBe(r.meta.summary.ops);
    await act(store, 'setConfig', { preset: 'v6.19' });
    s = store.getState();
    expect(s.traceRef).toBe(r.ref);
    expect(s.frame?.snapshot.config.era).toBe('classic');
    // free play on an imported trace: the worker appends the ops
    const live0 = store.liveHandles().length;
    const h = await act(store, 'freeAlloc');
    expect(h).toBe('fp0');
    expect(store.liveHandles().map((x) => x.handle)).toContain('fp0');
    expect(store.liveHandles().length).toBe(live0 + 1);
    await act(store, 'freeFree');
    expect(store.getState().frame?.runError).toBe('');
    expect(store.liveHandles().length).toBe(live0);
    const ex = (await act(store, 'exportV1')) as { text: string; name: string };
    expect(ex.name).toBe('ftrace-kmem-v5.4-changbin-pS-mixed-freeplay.v1.trace');
    expect(ex.text).toMatch(/c0 alloc \S+ fp0\n/);
    // share link: a small import travels as text
    const d = await decodeShare(await store.shareHash());
    expect(d.trace).toContain('slubviz-trace 1');
    expect(d.trace).toMatch(/# free play\nc0 alloc \S+ fp0\nc0 free \S+ fp0\n$/);
    expect(d.preset).toBe('v6.19');
  });

  test('junk text shows the error; the open run is untouched', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    await act(store, 'stepForward');
    const r = await act(store, 'importText', '\u0000\u0001junk\n', 'junk');
    expect((r as { ok: boolean }).ok).toBe(false);
    const s = store.getState();
    expect(s.importView?.result.ok).toBe(false);
    expect(s.status).toBe('ready');
    expect(s.frame?.seq).toBe(1);
    await act(store, 'stepForward');
    expect(store.getState().frame?.seq).toBe(2);
  });

  test('free play frees handles made in repeat blocks and kmalloc handles', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    const t = `slubviz-trace 1
node 0 mem=64M
cpus 0-1 node=0
cache demo-64 size=64
repeat 3 i {
  c0 alloc demo-64 o{$i} at=setup+0x10/0x40
}
c0 kmalloc 100 k1 at=probe+0x1/0x2
`;
    await act(store, 'openTrace', t, { scenario: null });
    const live = store.liveHandles();
    expect(live.map((x) => x.handle).sort()).toEqual(['k1', 'o0', 'o1', 'o2']);
    expect(live.find((x) => x.handle === 'o1')).toMatchObject({ cache: 'demo-64', kmalloc: false, site: 'setup+0x10/0x40' });
    expect(live.find((x) => x.handle === 'k1')?.kmalloc).toBe(true);
    await act(store, 'setFreePlay', { cpu: 1 });
    await act(store, 'freeFree', 'o1');
    expect(store.getState().trace).toMatch(/c1 free demo-64 o1\n$/);
    await act(store, 'freeFree', 'k1');
    expect(store.getState().trace).toMatch(/c1 kfree k1\n$/);
    expect(store.getState().frame?.runError).toBe('');
    expect(store.liveHandles().map((x) => x.handle).sort()).toEqual(['o0', 'o2']);
  });

  test('stored traces: open and delete', async () => {
    const { store } = makeStore();
    await act(store, 'loadScenario', 'basics');
    await act(store, 'importText', readFileSync(join(DATA, 'malloc-lab-short.rep'), 'utf8'), 'short.rep');
    const id = store.getState().stored[0].id;
    await act(store, 'loadScenario', 'basics');
    await act(store, 'openStored', id);
    let s = store.getState();
    expect(s.traceRef).toBe(`stored:${id}`);
    expect(s.traceName).toBe('short.rep');
    expect(s.importView?.open).toBe(true);
    await act(store, 'deleteStored', id);
    s = store.getState();
    expect(s.stored).toEqual([]);
    // the open run goes on (the worker still holds its text)
    await act(store, 'restart');
    expect(store.getState().status).toBe('ready');
  });
});
