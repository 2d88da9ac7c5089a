/// <reference lib="webworker" />
// The lesson worker: a wasm instance of its own for the lesson player
// (positions, question windows, sandbox attempts, data tables), so the
// visualizer's engine worker keeps its single session.
import { isTrap } from '../engine/backend';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { LessonBackend } from './backend';
import type { LessonReply, LessonRequest } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

let wasmBase = new URL('../wasm/', self.location.href).href;
let backend: Promise<LessonBackend> | null = null;

async function load(): Promise<LessonBackend> {
  const base = wasmBase;
  const factoryMod = (await import(/* @vite-ignore */ `${base}slubviz_core.mjs`)) as { default: (o: object) => Promise<SlubvizModule> };
  const mod = await factoryMod.default({ locateFile: (p: string) => base + p, print: () => {}, printErr: (s: string) => console.warn(s) });
  return new LessonBackend(mod);
}

async function handle(req: LessonRequest): Promise<unknown> {
  if (req.type === 'init') {
    wasmBase = req.wasmBase;
    backend ??= load();
    await backend;
    return null;
  }
  backend ??= load();
  const b = await backend;
  switch (req.type) {
    case 'load':
      b.load(req.lesson, req.scenarios);
      return null;
    case 'prepare':
      return b.prepare(req.lessonId, req.variant);
    case 'choices':
      return b.choices(req.lessonId, req.qid);
    case 'click':
      return b.click(req.lessonId, req.qid, req.target);
    case 'candidates':
      return b.candidates(req.lessonId, req.qid);
    case 'sandbox':
      return b.sandbox(req.lessonId, req.lines);
    case 'extras':
      return b.extras(req.lessonId);
  }
}

let chain: Promise<void> = Promise.resolve();
self.onmessage = (ev: MessageEvent<LessonRequest>) => {
  const req = ev.data;
  chain = chain.then(async () => {
    let r: LessonReply;
    try {
      r = { id: req.id, type: 'ok', result: await handle(req) };
    } catch (e) {
      // a trap may have left the instance corrupt: the client replaces this worker
      const trap = isTrap(e);
      r = { id: req.id, type: 'error', message: e instanceof Error ? (trap ? `${e.name}: ${e.message}` : e.message) : String(e), trap };
    }
    self.postMessage(r);
  });
};
