// Restart after a wasm trap (client.ts, serve.ts): real traps of the real
// module (svz_debug_trap), each "worker" an in-process serve() loop over its
// own module instance behind a fake Worker; the storage outlives workers
// as IndexedDB does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { Store } from '../state/store';
import { isTrap } from '../rpc/server';
import type { Message, Reply } from '../rpc/protocol';
import { Backend } from './backend';
import { EngineClient, EngineCrash, MAX_RESTARTS, type WorkerLike } from './client';
import type { RequestBody } from './protocol';
import { serve } from './serve';
import { MemoryStorage } from './storage';
import { synthFtraceBlob } from './synth';
import { loadModule, ROOT, scenario } from './testing';

const SAMPLE = readFileSync(join(ROOT, 'core/tests/data/ftrace/ftrace-kmem-v6.12-rostedt-node-accounted-name.txt'), 'utf8');

class FakeWorker implements WorkerLike {
  onmessage: ((ev: MessageEvent) => unknown) | null = null;
  onerror: ((ev: ErrorEvent) => unknown) | null = null;
  terminated = false;
  readonly got: string[] = [];
  private readonly onRequest: (req: Message<RequestBody>) => void;
  constructor(storage: MemoryStorage) {
    const reply = (r: Reply) => {
      if (!this.terminated) setTimeout(() => !this.terminated && this.onmessage?.({ data: structuredClone(r) } as MessageEvent), 0);
    };
    this.onRequest = serve(
      async () => {
        const mod = await loadModule();
        const b = new Backend(mod, storage);
        // a trace that traps while it opens (the pre-pass running out of memory, say)
        const open = b.engine.open.bind(b.engine);
        b.engine.open = (trace, ...rest) => {
          if (trace.startsWith('# trap me')) mod._svz_debug_trap(1);
          return open(trace, ...rest);
        };
        return b;
      },
      reply,
      'wasm/',
    );
  }
  postMessage(msg: unknown): void {
    if (this.terminated) return;
    const req = msg as Message<RequestBody>;
    this.got.push(req.type);
    setTimeout(() => this.onRequest(req), 0);
  }
  terminate(): void {
    this.terminated = true;
  }
  /** the worker dies (an uncaught error: no handover possible) */
  die(message: string): void {
    this.onerror?.({ message, preventDefault() {} } as ErrorEvent);
  }
}

function makeClient() {
  const storage = new MemoryStorage();
  const workers: FakeWorker[] = [];
  const client = new EngineClient(() => {
    const w = new FakeWorker(storage);
    workers.push(w);
    return w;
  }, 'wasm/');
  const crashes: string[] = [];
  client.onCrash((r) => crashes.push(r));
  return { client, workers, crashes, storage };
}

describe('engine restart after a trap', () => {
  test('isTrap: unreachable and abort() are traps, a JS error is not', async () => {
    const mod = await loadModule();
    let e1: unknown, e2: unknown;
    try {
      mod._svz_debug_trap(0);
    } catch (e) {
      e1 = e;
    }
    try {
      (await loadModule())._svz_debug_trap(1);
    } catch (e) {
      e2 = e;
    }
    expect(isTrap(e1)).toBe(true);
    expect(String(e1)).toMatch(/unreachable/);
    expect(isTrap(e2)).toBe(true);
    expect(String(e2)).toMatch(/Aborted/);
    expect(isTrap(new Error('x'))).toBe(false);
  });

  test('a trap replaces the worker; the texts it held (an unstored import) move to the new one', async () => {
    const { client, workers, crashes } = makeClient();
    const imp = await client.call({ type: 'import', source: new Blob([SAMPLE]), name: 's.txt', format: '', store: false });
    if (!imp.ok) throw new Error(imp.error);
    const a = await client.call({ type: 'open', trace: '', ref: imp.ref, preset: '', sets: '' });
    const f1 = await client.call({ type: 'seek', seq: 5 });

    const err = await client.call({ type: 'debugTrap', kind: 'unreachable' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineCrash);
    expect(String(err)).toMatch(/RuntimeError: unreachable/);
    expect(crashes).toEqual(['RuntimeError: unreachable']);
    // the next call waits for the new worker
    const b = await client.call({ type: 'open', trace: '', ref: imp.ref, preset: '', sets: '' });
    expect(client.restarts).toBe(1);
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(true);
    expect(workers[0].got).toContain('held');
    expect(workers[1].got.slice(0, 2)).toEqual(['init', 'adopt']);
    expect(b.meta.opsTotal).toBe(a.meta.opsTotal);
    const f2 = await client.call({ type: 'seek', seq: 5 });
    expect(f2.snapshot).toEqual(f1.snapshot);
  });

  test('requests queued behind the trap fail as crashes too; abort() is a trap', async () => {
    const { client, crashes } = makeClient();
    await client.call({ type: 'open', trace: scenario('basics'), preset: '', sets: '' });
    const trap = client.call({ type: 'debugTrap', kind: 'abort' }).catch((e: unknown) => e);
    const behind = client.call({ type: 'step', count: 1 }).catch((e: unknown) => e);
    expect(await trap).toBeInstanceOf(EngineCrash);
    expect(await behind).toBeInstanceOf(EngineCrash);
    expect(crashes).toHaveLength(1);
    expect(crashes[0]).toMatch(/Aborted/);
    // the new instance has no session open yet, and works
    await expect(client.call({ type: 'frame' })).rejects.toThrow(/no trace is open/);
    const r = await client.call({ type: 'open', trace: scenario('basics'), preset: '', sets: '' });
    expect(r.frame.seq).toBe(0);
  });

  test('a worker that dies is replaced (no handover); pending calls fail', async () => {
    const { client, workers, crashes } = makeClient();
    await client.call({ type: 'open', trace: scenario('basics'), preset: '', sets: '' });
    const pending = client.call({ type: 'step', count: 3 }).catch((e: unknown) => e);
    workers[0].die('out of memory');
    expect(await pending).toBeInstanceOf(EngineCrash);
    expect(crashes).toEqual(['the engine worker failed: out of memory']);
    await client.call({ type: 'open', trace: scenario('basics'), preset: '', sets: '' });
    expect(workers[0].got).not.toContain('held');
    expect(client.restarts).toBe(1);
  });

  test('a signal cancels a request in the worker (the import stops between chunks)', async () => {
    const { client, workers } = makeClient();
    const cancel = new AbortController();
    const seen: string[] = [];
    // a browser reads a Blob's slice in a task, so messages (the cancel) get
    // in between two chunks; Node's in-memory Blob never yields: wait a timer
    const big = synthFtraceBlob(50_000);
    const source = {
      size: big.size,
      slice: (a?: number, b?: number) => ({
        arrayBuffer: () => new Promise<ArrayBuffer>((resolve) => setTimeout(() => resolve(big.slice(a, b).arrayBuffer()), 1)),
      }),
    } as Blob;
    const r = await client.call(
      { type: 'import', source, name: 'big.txt', format: '', store: false },
      (_d, _t, what) => {
        seen.push(what);
        cancel.abort();
      },
      cancel.signal,
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(r).toMatchObject({ ok: false, cancelled: true });
    expect(workers).toHaveLength(1);
    // the worker goes on serving
    expect((await client.call({ type: 'import', source: new Blob([SAMPLE]), name: 's.txt', format: '', store: false })).ok).toBe(true);
  });

  test(`gives up after ${MAX_RESTARTS} crashes in a row`, async () => {
    const { client, workers } = makeClient();
    for (let i = 0; i <= MAX_RESTARTS; i++) {
      await client.call({ type: 'init', wasmBase: 'wasm/' });
      workers[workers.length - 1].die('boom');
    }
    await expect(client.call({ type: 'init', wasmBase: 'wasm/' })).rejects.toThrow(/crashed 4 times in a row.*reload/);
    expect(workers).toHaveLength(MAX_RESTARTS + 1);
  });

  test('the store restores the last good position and says so', async () => {
    const { client } = makeClient();
    const store = new Store(client, {
      fetchText: async (path) => scenario(/^scenarios\/(.+)\.trace$/.exec(path)![1]),
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      now: () => performance.now(),
    });
    await store.loadScenario('basics');
    await store.seekSeq(30);
    await store.idle();
    const before = store.getState().frame!.snapshot;
    await client.call({ type: 'debugTrap', kind: 'unreachable' }).catch(() => undefined);
    await vi.waitFor(
      async () => {
        await store.idle();
        expect(store.getState().frame?.seq).toBe(30);
      },
      { timeout: 20_000 },
    );
    const st = store.getState();
    expect(st.status).toBe('ready');
    expect(st.error).toBeNull();
    expect(st.scenario).toBe('basics');
    expect(st.notice?.kind).toBe('crash');
    expect(st.notice?.text).toMatch(/crashed \(RuntimeError: unreachable\).*restarted.*scenario basics.*step 30/);
    expect(st.frame!.snapshot).toEqual(before);
    // and it keeps working
    await store.stepForward();
    expect(store.getState().frame?.seq).toBe(31);

    // a trap while opening another trace: the last good run comes back
    await store.openTrace(`# trap me\n${scenario('partial-churn')}`, { scenario: null });
    await vi.waitFor(
      async () => {
        await store.idle();
        expect(store.getState().frame?.seq).toBe(31);
      },
      { timeout: 20_000 },
    );
    expect(store.getState()).toMatchObject({ status: 'ready', scenario: 'basics', error: null });
    expect(store.getState().notice?.text).toMatch(/crashed \(RuntimeError: Aborted.*scenario basics was restored at step 31/);
    expect(client.restarts).toBe(2);
  });
});
