// The UI side of the engine protocol: a promise per request.
import type { Reply, ReplyPayload, RequestBody } from './protocol';

export type ProgressFn = (done: number, total: number, what: string, lines?: number) => void;

export interface EngineApi {
  call<T extends RequestBody>(body: T, onProgress?: ProgressFn): Promise<ReplyPayload[T['type']]>;
  /** ms the last reply took in the worker */
  lastMs: number;
}

export class EngineClient implements EngineApi {
  private next = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; progress?: ProgressFn }>();
  lastMs = 0;

  constructor(private readonly worker: Worker) {
    worker.onmessage = (ev: MessageEvent<Reply>) => this.onReply(ev.data);
    worker.onerror = (ev) => {
      const err = new Error(`engine worker: ${ev.message}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
  }

  /** Starts the worker; `wasmBase` is the URL of the folder holding slubviz_core.{mjs,wasm}. */
  static create(wasmBase: string): EngineClient {
    const c = new EngineClient(new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));
    void c.call({ type: 'init', wasmBase }).catch((e: unknown) => console.error('engine init failed:', e));
    return c;
  }

  private onReply(r: Reply): void {
    const p = this.pending.get(r.id);
    if (!p) return;
    if (r.type === 'progress') {
      p.progress?.(r.done, r.total, r.what, r.lines);
      return;
    }
    this.pending.delete(r.id);
    if (r.type === 'ok') {
      this.lastMs = r.ms;
      p.resolve(r.result);
    } else p.reject(new Error(r.message));
  }

  call<T extends RequestBody>(body: T, onProgress?: ProgressFn): Promise<ReplyPayload[T['type']]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, progress: onProgress });
      this.worker.postMessage({ ...body, id });
    });
  }
}
