// The page side of the lesson worker: the shared RPC client (rpc/client.ts),
// started on the first request (the player may never be opened). A trap
// replaces the worker on the next request: the lessons loaded into the old
// one are loaded again and the request that failed is retried once.
import { RpcClient, type WorkerLike } from '../rpc/client';
import { EngineCrash } from '../rpc/protocol';
import type { LessonBackend } from './backend';
import type { LessonApi, LessonReplyPayload, LessonRequestBody } from './protocol';

type Load = Extract<LessonRequestBody, { type: 'load' }>;

export class LessonClient implements LessonApi {
  private readonly rpc: RpcClient<LessonRequestBody, LessonReplyPayload>;
  private readonly loads = new Map<string, Load>();

  /** `spawn(wasmBase)` starts a worker (named after the wasm's folder, which it
   * loads from its first moment: rpc/server.ts); `wasmBase` is the folder of slubviz_core.{mjs,wasm}. */
  constructor(
    wasmBase: string,
    spawn: (wasmBase: string) => WorkerLike = (base) => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: base }),
  ) {
    this.rpc = new RpcClient(spawn, wasmBase, {
      name: 'lesson worker',
      eager: false,
      maxRestarts: Infinity,
      successor: async () => [...this.loads.values()],
    });
  }

  /** workers replaced so far */
  get restarts(): number {
    return this.rpc.restarts;
  }

  async call<T extends LessonRequestBody>(body: T): Promise<LessonReplyPayload[T['type']]> {
    if (body.type === 'load') this.loads.set((body as Load).lesson.id, body as Load);
    try {
      return await this.rpc.call(body);
    } catch (e) {
      if (!(e instanceof EngineCrash)) throw e;
      return this.rpc.call(body);
    }
  }
}

/** The backend in process (tests): the worker's dispatch minus postMessage. */
export class LocalLessons implements LessonApi {
  constructor(private readonly backend: LessonBackend) {}
  async call<T extends LessonRequestBody>(body: T): Promise<LessonReplyPayload[T['type']]> {
    // a structured clone, as postMessage would make
    return structuredClone(this.backend.handle(body));
  }
}
