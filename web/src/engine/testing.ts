// Test helpers (Node only): the browser module loaded from build-wasm/, an
// Engine on it, and an in-process EngineApi for the store.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EngineApi } from './client';
import { Engine } from './engine';
import type { RequestBody, ReplyPayload } from './protocol';
import type { SlubvizModule } from './session';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export async function loadModule(): Promise<SlubvizModule> {
  const mjs = join(ROOT, 'build-wasm/slubviz_core.mjs');
  const { default: factory } = (await import(/* @vite-ignore */ pathToFileURL(mjs).href)) as {
    default: (o: object) => Promise<SlubvizModule>;
  };
  return factory({ wasmBinary: readFileSync(join(ROOT, 'build-wasm/slubviz_core.wasm')), print: () => {}, printErr: () => {} });
}

export function scenario(id: string): string {
  return readFileSync(join(ROOT, 'scenarios', `${id}.trace`), 'utf8');
}

/** The worker's dispatch, in process (what worker.ts does, minus postMessage). */
export class LocalEngine implements EngineApi {
  lastMs = 0;
  constructor(readonly engine: Engine) {}
  async call<T extends RequestBody>(body: T): Promise<ReplyPayload[T['type']]> {
    const e = this.engine;
    const b = body as RequestBody;
    let r: unknown;
    switch (b.type) {
      case 'init': r = null; break;
      case 'open': r = e.open(b.trace, b.preset, b.sets, b.checkpointEvery ?? 0); break;
      case 'step': r = e.step(b.count); break;
      case 'stepOp': r = e.stepOp(b.count); break;
      case 'seek': r = e.seek(b.seq); break;
      case 'seekOp': r = e.seekOp(b.op); break;
      case 'runUntil': r = e.runUntil(b.bp, b.maxSteps); break;
      case 'text': r = e.text(b.what, b.cache); break;
      case 'frame': r = e.frame(); break;
    }
    // a structured clone, as postMessage would make
    return structuredClone(r) as ReplyPayload[T['type']];
  }
}
