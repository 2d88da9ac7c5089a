/// <reference lib="webworker" />
// The engine worker: owns the wasm instance and the Engine, answers the
// typed {id, type} requests of protocol.ts in order.
import { Engine } from './engine';
import type { Reply, Request } from './protocol';
import type { SlubvizModule } from './session';

declare const self: DedicatedWorkerGlobalScope;

let enginePromise: Promise<Engine> | null = null;
// where slubviz_core.{mjs,wasm} are served; the page sends it first ('init')
let wasmBase = new URL('../wasm/', self.location.href).href;

async function loadEngine(): Promise<Engine> {
  const base = wasmBase;
  const factoryMod = (await import(/* @vite-ignore */ `${base}slubviz_core.mjs`)) as {
    default: (opts: object) => Promise<SlubvizModule>;
  };
  const mod = await factoryMod.default({
    locateFile: (p: string) => base + p,
    print: (s: string) => console.log(s),
    printErr: (s: string) => console.warn(s),
  });
  return new Engine(mod);
}

function post(r: Reply): void {
  self.postMessage(r);
}

async function handle(req: Request): Promise<unknown> {
  if (req.type === 'init') {
    wasmBase = req.wasmBase;
    enginePromise ??= loadEngine();
    await enginePromise;
    return null;
  }
  enginePromise ??= loadEngine();
  const e = await enginePromise;
  const progress = (done: number, total: number, what: string) =>
    post({ id: req.id, type: 'progress', done, total, what });
  switch (req.type) {
    case 'open':
      return e.open(req.trace, req.preset, req.sets, req.checkpointEvery ?? 0, progress);
    case 'step':
      return e.step(req.count);
    case 'stepOp':
      return e.stepOp(req.count);
    case 'seek':
      return e.seek(req.seq);
    case 'seekOp':
      return e.seekOp(req.op);
    case 'runUntil':
      return e.runUntil(req.bp, req.maxSteps, progress);
    case 'text':
      return e.text(req.what, req.cache);
    case 'frame':
      return e.frame();
  }
}

let chain: Promise<void> = Promise.resolve();
self.onmessage = (ev: MessageEvent<Request>) => {
  const req = ev.data;
  chain = chain.then(async () => {
    const t0 = performance.now();
    try {
      const result = await handle(req);
      post({ id: req.id, type: 'ok', result, ms: performance.now() - t0 });
    } catch (err) {
      post({ id: req.id, type: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  });
};
