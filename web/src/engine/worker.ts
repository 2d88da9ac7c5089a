/// <reference lib="webworker" />
// The engine worker: owns the wasm instance and the Backend (engine, held
// trace texts, streaming import, IndexedDB storage), answers the typed
// {id, type} requests of protocol.ts. Engine requests run one at a time in
// arrival order; an import runs beside them (it never touches the engine's
// session) and a cancel is answered at once.
import { Backend } from './backend';
import type { Reply, Request } from './protocol';
import type { SlubvizModule } from './session';
import { IdbStorage } from './storage';

declare const self: DedicatedWorkerGlobalScope;

let backendPromise: Promise<Backend> | null = null;
// where slubviz_core.{mjs,wasm} are served; the page sends it first ('init')
let wasmBase = new URL('../wasm/', self.location.href).href;

async function loadBackend(): Promise<Backend> {
  const base = wasmBase;
  const factoryMod = (await import(/* @vite-ignore */ `${base}slubviz_core.mjs`)) as {
    default: (opts: object) => Promise<SlubvizModule>;
  };
  const mod = await factoryMod.default({
    locateFile: (p: string) => base + p,
    print: (s: string) => console.log(s),
    printErr: (s: string) => console.warn(s),
  });
  return new Backend(mod, new IdbStorage());
}

function post(r: Reply): void {
  self.postMessage(r);
}

async function handle(req: Request): Promise<unknown> {
  if (req.type === 'init') {
    wasmBase = req.wasmBase;
    backendPromise ??= loadBackend();
    await backendPromise;
    return null;
  }
  backendPromise ??= loadBackend();
  const b = await backendPromise;
  const progress = (done: number, total: number, what: string, lines?: number) =>
    post({ id: req.id, type: 'progress', done, total, what, lines });
  const { id: _id, ...body } = req;
  return b.handle(body, progress);
}

async function answer(req: Request): Promise<void> {
  const t0 = performance.now();
  try {
    const result = await handle(req);
    post({ id: req.id, type: 'ok', result, ms: performance.now() - t0 });
  } catch (err) {
    post({ id: req.id, type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}

let chain: Promise<void> = Promise.resolve();
self.onmessage = (ev: MessageEvent<Request>) => {
  const req = ev.data;
  if (Backend.concurrent(req.type)) {
    void answer(req);
    return;
  }
  chain = chain.then(() => answer(req));
};
