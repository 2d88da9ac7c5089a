// The UI side of the engine protocol: a promise per request.
//
// Restart after a trap: a reply with `trap: true` (the wasm instance
// trapped: abort, out of memory, unreachable) or the worker dying (its
// 'error' event) replaces the worker. The trace texts the old one held
// (imports) are handed over when it can still answer ('held'), then it is
// terminated; its other requests fail with EngineCrash; calls made
// meanwhile wait for the new worker. onCrash listeners (the store) then
// restore the last good position. After MAX_RESTARTS crashes without a
// good reply in between it gives up (every call fails).
import type { Held, Reply, ReplyPayload, RequestBody } from './protocol';

export type ProgressFn = (done: number, total: number, what: string, lines?: number) => void;

export interface EngineApi {
  call<T extends RequestBody>(body: T, onProgress?: ProgressFn): Promise<ReplyPayload[T['type']]>;
  /** ms the last reply took in the worker */
  lastMs: number;
  /** called when the engine crashed and was restarted (why, e.g. "RuntimeError: unreachable") */
  onCrash?(fn: (reason: string) => void): void;
  /** engine restarts so far */
  restarts?: number;
}

/** A request lost to an engine crash (the engine restarts by itself). */
export class EngineCrash extends Error {
  override name = 'EngineCrash';
}

/** What the client needs of a Worker (a fake one in tests). */
export interface WorkerLike {
  onmessage: ((ev: MessageEvent) => unknown) | null;
  onerror: ((ev: ErrorEvent) => unknown) | null;
  postMessage(msg: unknown): void;
  terminate(): void;
}

interface Pending {
  worker: WorkerLike;
  type: RequestBody['type'];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  progress?: ProgressFn;
}

export const MAX_RESTARTS = 3;
/** how long a trapped worker gets to hand its texts over */
const HANDOVER_MS = 5000;

export class EngineClient implements EngineApi {
  private next = 1;
  private pending = new Map<number, Pending>();
  private worker: WorkerLike;
  private restarting: Promise<void> | null = null;
  private listeners = new Set<(reason: string) => void>();
  /** crashes since the last good reply (to anything but init) */
  private crashesInARow = 0;
  private dead: string | null = null;
  lastMs = 0;
  restarts = 0;

  /** `spawn` starts a worker; `wasmBase` is the URL of the folder holding slubviz_core.{mjs,wasm}. */
  constructor(
    private readonly spawn: () => WorkerLike,
    private readonly wasmBase: string,
  ) {
    this.worker = this.start();
  }

  static create(wasmBase: string): EngineClient {
    return new EngineClient(() => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }), wasmBase);
  }

  onCrash(fn: (reason: string) => void): void {
    this.listeners.add(fn);
  }

  private start(): WorkerLike {
    const w = this.spawn();
    w.onmessage = (ev: MessageEvent<Reply>) => this.onReply(w, ev.data);
    w.onerror = (ev) => {
      ev.preventDefault?.();
      this.crash(w, `the engine worker failed: ${ev.message || 'unknown error'}`, false);
    };
    void this.post(w, { type: 'init', wasmBase: this.wasmBase }).catch((e: unknown) => {
      if (!(e instanceof EngineCrash)) console.error('engine init failed:', e);
    });
    return w;
  }

  private onReply(w: WorkerLike, r: Reply): void {
    const p = this.pending.get(r.id);
    if (!p || p.worker !== w) return;
    if (r.type === 'progress') {
      p.progress?.(r.done, r.total, r.what, r.lines);
      return;
    }
    this.pending.delete(r.id);
    if (r.type === 'ok') {
      this.lastMs = r.ms;
      // a worker that starts (init) but crashes on its first real work is no better
      if (p.type !== 'init') this.crashesInARow = 0;
      p.resolve(r.result);
    } else if (r.trap) {
      p.reject(new EngineCrash(r.message));
      this.crash(w, r.message, true);
    } else p.reject(new Error(r.message));
  }

  /** Replaces worker `w` (once, whoever reports it first). */
  private crash(w: WorkerLike, reason: string, canHandOver: boolean): void {
    if (w !== this.worker || this.restarting || this.dead) return;
    this.crashesInARow++;
    this.restarting = (async () => {
      let held: Held | null = null;
      if (canHandOver) held = await this.handover(w);
      w.terminate();
      this.failPending(w, `the engine was restarted after: ${reason}`);
      if (this.crashesInARow > MAX_RESTARTS) {
        this.dead = `the engine crashed ${this.crashesInARow} times in a row (last: ${reason}); reload the page`;
        return;
      }
      this.restarts++;
      this.worker = this.start();
      if (held && held.texts.length) await this.post(this.worker, { type: 'adopt', held }).catch(() => undefined);
    })().finally(() => {
      this.restarting = null;
    });
    for (const fn of this.listeners) fn(reason);
  }

  /** The trace texts of a trapped worker (its JS state is intact), or null. */
  private async handover(w: WorkerLike): Promise<Held | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), HANDOVER_MS)));
    try {
      return await Promise.race([this.post(w, { type: 'held' }).catch(() => null), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private failPending(w: WorkerLike, why: string): void {
    for (const [id, p] of this.pending)
      if (p.worker === w) {
        this.pending.delete(id);
        p.reject(new EngineCrash(why));
      }
  }

  private post<T extends RequestBody>(w: WorkerLike, body: T, onProgress?: ProgressFn): Promise<ReplyPayload[T['type']]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { worker: w, type: body.type, resolve: resolve as (v: unknown) => void, reject, progress: onProgress });
      w.postMessage({ ...body, id });
    });
  }

  async call<T extends RequestBody>(body: T, onProgress?: ProgressFn): Promise<ReplyPayload[T['type']]> {
    while (this.restarting) await this.restarting;
    if (this.dead) throw new Error(this.dead);
    return this.post(this.worker, body, onProgress);
  }
}
