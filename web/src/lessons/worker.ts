/// <reference lib="webworker" />
// The lesson worker: a wasm instance of its own for the lesson player
// (positions, question windows, sandbox attempts, data tables), so the
// visualizer's engine worker keeps its single session. The loop is the
// shared one (rpc/server.ts).
import type { Message } from '../rpc/protocol';
import { loadWasm, serve, workerWasmBase } from '../rpc/server';
import { LessonBackend } from './backend';
import type { LessonRequestBody } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

const { wasmBase, loadNow } = workerWasmBase(self);
const onRequest = serve<LessonRequestBody>(
  async (base) => {
    const { mod, deferred } = await loadWasm(base);
    // a lesson's runs take any preset: its other half at once, off the thread
    void deferred.prefetch();
    return new LessonBackend(mod);
  },
  (r) => self.postMessage(r),
  wasmBase,
  { loadNow },
);
self.onmessage = (ev: MessageEvent<Message<LessonRequestBody>>) => onRequest(ev.data);
