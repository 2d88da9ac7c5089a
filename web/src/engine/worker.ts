/// <reference lib="webworker" />
// The engine worker: owns the wasm instance and the Backend (engine, held
// trace texts, streaming import, IndexedDB storage) and answers the
// requests of protocol.ts (the loop and its trap handling: serve.ts).
import type { Message } from '../rpc/protocol';
import { loadWasm, workerWasmBase } from '../rpc/server';
import { Backend } from './backend';
import type { RequestBody } from './protocol';
import { serve } from './serve';
import { IdbStorage } from './storage';

declare const self: DedicatedWorkerGlobalScope;

const { wasmBase, loadNow } = workerWasmBase(self);
const onRequest = serve(
  async (base) => {
    const { mod, deferred } = await loadWasm(base, (s) => console.log(s));
    return new Backend(mod, new IdbStorage(), { deferred });
  },
  (r) => self.postMessage(r),
  wasmBase,
  { loadNow },
);
self.onmessage = (ev: MessageEvent<Message<RequestBody>>) => onRequest(ev.data);
