// The page side of the engine worker: the shared RPC client (rpc/client.ts)
// started at once and replaced at once after a crash. A trapped worker's
// trace texts (imports it holds) are handed to its successor ('held', then
// 'adopt'); onCrash listeners (the store) then restore the last good
// position. After MAX_RESTARTS crashes without a good reply in between it
// gives up (every call fails). Frames arrive with their snapshots' owners
// packed (wire.ts) and are unpacked here.
import { RpcClient, type AskOld, type WorkerLike } from '../rpc/client';
import type { Api, ProgressFn } from '../rpc/protocol';
import type { Held, ReplyPayload, RequestBody } from './protocol';
import { unpackFrames } from './wire';

export { EngineCrash } from '../rpc/protocol';
export type { ProgressFn, WorkerLike };

export interface EngineApi extends Api<RequestBody, ReplyPayload> {
  /** ms the last reply took in the worker */
  lastMs: number;
  /** called when the engine crashed and was restarted (why, e.g. "RuntimeError: unreachable") */
  onCrash?(fn: (reason: string) => void): void;
  /** engine restarts so far */
  restarts?: number;
}

export const MAX_RESTARTS = 3;
/** how long a trapped worker gets to hand its texts over */
const HANDOVER_MS = 5000;

/** The trace texts of a trapped worker (its JS state is intact), as the
 * successor's first request. */
async function handOverHeld(old: AskOld<RequestBody, ReplyPayload> | null): Promise<RequestBody[]> {
  if (!old) return [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), HANDOVER_MS)));
  try {
    const held: Held | null = await Promise.race([old({ type: 'held' }).catch(() => null), timeout]);
    return held && held.texts.length ? [{ type: 'adopt', held }] : [];
  } finally {
    clearTimeout(timer);
  }
}

export class EngineClient extends RpcClient<RequestBody, ReplyPayload> implements EngineApi {
  /** `spawn(wasmBase)` starts a worker; `wasmBase` is the URL of the folder holding slubviz_core.{mjs,wasm}. */
  constructor(spawn: (wasmBase: string) => WorkerLike, wasmBase: string) {
    super(spawn, wasmBase, { name: 'engine', eager: true, maxRestarts: MAX_RESTARTS, successor: handOverHeld, decode: unpackFrames });
  }

  static create(wasmBase: string): EngineClient {
    // the worker's name is the wasm's folder: it loads from its first moment (worker.ts)
    return new EngineClient((base) => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: base }), wasmBase);
  }
}
