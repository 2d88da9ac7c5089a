// Test helpers (Node only): the browser module loaded from build-wasm/, an
// Engine on it, and an in-process EngineApi for the store.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Backend } from './backend';
import type { EngineApi, ProgressFn } from './client';
import { Engine } from './engine';
import type { RequestBody, ReplyPayload } from './protocol';
import { DeferredHalf, type SlubvizModule, type SlubvizModuleFactory } from '../../../core/wasm/slubviz-api';
import { MemoryStorage } from './storage';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the module is built: build-wasm/, or SVZ_WASM_DIR (the wasm
 * sanitizer build, as test/helpers.mjs takes it). */
const WASM_DIR = process.env.SVZ_WASM_DIR || join(ROOT, 'build-wasm');

/** The browser module; its deferred half (Release builds) loads on the
 * first call into it. */
export async function loadModule(): Promise<SlubvizModule> {
  const mjs = join(WASM_DIR, 'slubviz_core.mjs');
  const { default: factory } = (await import(/* @vite-ignore */ pathToFileURL(mjs).href)) as {
    default: SlubvizModuleFactory;
  };
  const deferred = new DeferredHalf(() => readFileSync(join(WASM_DIR, 'slubviz_core.deferred.wasm')));
  const wasmBinary = readFileSync(join(WASM_DIR, 'slubviz_core.wasm'));
  return deferred.attach(await factory({ wasmBinary, print: () => {}, printErr: () => {}, ...deferred.factoryOptions() }));
}

export function scenario(id: string): string {
  return readFileSync(join(ROOT, 'scenarios', `${id}.trace`), 'utf8');
}

/** The worker's dispatch, in process (what worker.ts does, minus
 * postMessage), over a Backend with in-memory trace storage. */
export class LocalEngine implements EngineApi {
  lastMs = 0;
  readonly backend: Backend;
  constructor(engineOrBackend: Engine | Backend) {
    this.backend =
      engineOrBackend instanceof Backend
        ? engineOrBackend
        : new Backend(engineOrBackend.mod, new MemoryStorage(), { engine: engineOrBackend });
  }
  get engine(): Engine {
    return this.backend.engine;
  }
  async call<T extends RequestBody>(body: T, onProgress?: ProgressFn, signal?: AbortSignal): Promise<ReplyPayload[T['type']]> {
    const r = await this.backend.handle(body, onProgress, signal);
    // a structured clone, as postMessage would make
    return structuredClone(r) as ReplyPayload[T['type']];
  }
}
