/// <reference lib="webworker" />
// The engine worker: owns the wasm instance and the Backend (engine, held
// trace texts, streaming import, IndexedDB storage) and answers the typed
// {id, type} requests of protocol.ts (the loop and its trap handling:
// serve.ts).
import { Backend } from './backend';
import type { Request } from './protocol';
import { serve } from './serve';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { IdbStorage } from './storage';

declare const self: DedicatedWorkerGlobalScope;

async function loadBackend(base: string): Promise<Backend> {
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

// where slubviz_core.{mjs,wasm} are served; the page sends it first ('init')
const onRequest = serve(loadBackend, (r) => self.postMessage(r), new URL('../wasm/', self.location.href).href);
self.onmessage = (ev: MessageEvent<Request>) => onRequest(ev.data);
