// The page side of the protocol (protocol.ts): a promise per request, with
// progress callbacks, over a worker the client starts ('init' first) and
// replaces when it crashes.
//
// A crash is a reply with `trap: true` (the wasm instance trapped: abort,
// out of memory, unreachable) or the worker dying (its 'error' event). The
// client then asks the old worker, if it can still answer, what its
// successor needs (`successor`: the engine's held trace texts), terminates
// it and fails its other requests with EngineCrash; calls made meanwhile
// wait. The successor starts at once (eager) or on the next call (lazy),
// gets `successor`'s requests first, then the calls. After `maxRestarts`
// crashes without a good reply in between the client gives up (every call
// fails).
import { EngineCrash, type Api, type Body, type Cancel, type InitBody, type Payloads, type ProgressFn, type Reply } from './protocol';

/** What the client needs of a Worker (a fake one in tests). */
export interface WorkerLike {
  onmessage: ((ev: MessageEvent) => unknown) | null;
  onerror: ((ev: ErrorEvent) => unknown) | null;
  postMessage(msg: unknown): void;
  terminate(): void;
}

/** Asks the crashed worker (its JS state is intact after a trap). */
export type AskOld<B extends Body, P extends Payloads<B>> = <T extends B>(body: T) => Promise<P[T['type']]>;

/** A request body or the protocol's 'init'. */
type Any<B extends Body> = B | InitBody;

export interface ClientOptions<B extends Body, P extends Payloads<B>> {
  /** what the worker is, for messages ("engine", "lesson worker") */
  name: string;
  /** start the first worker now and a successor at once (else on the next call) */
  eager: boolean;
  /** crashes in a row after which the client gives up */
  maxRestarts: number;
  /** the requests a successor gets before any call; `old` asks the crashed
   * worker (null when it died and cannot answer) */
  successor?(old: AskOld<B, P> | null): Promise<B[]>;
  /** a result as the worker's `encode` sent it, made what the call answers */
  decode?(result: unknown): unknown;
}

interface Pending {
  worker: WorkerLike;
  type: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  progress?: ProgressFn;
}

export class RpcClient<B extends Body, P extends Payloads<B>> implements Api<B, P> {
  private next = 1;
  private pending = new Map<number, Pending>();
  private worker: WorkerLike | null = null;
  /** the requests the next worker gets first (a successor's) */
  private handover: B[] | null = null;
  private restarting: Promise<void> | null = null;
  private listeners = new Set<(reason: string) => void>();
  /** crashes since the last good reply (to anything but init) */
  private crashesInARow = 0;
  private dead: string | null = null;
  /** ms the last reply took in the worker */
  lastMs = 0;
  /** workers replaced so far */
  restarts = 0;

  /** `spawn(wasmBase)` starts a worker; `wasmBase` is the URL of the folder holding slubviz_core.{mjs,wasm}. */
  constructor(
    private readonly spawn: (wasmBase: string) => WorkerLike,
    private readonly wasmBase: string,
    private readonly opts: ClientOptions<B, P>,
  ) {
    if (opts.eager) this.worker = this.start();
  }

  /** `fn` runs when the worker crashed (why, e.g. "RuntimeError: unreachable") */
  onCrash(fn: (reason: string) => void): void {
    this.listeners.add(fn);
  }

  private start(): WorkerLike {
    const w = this.spawn(this.wasmBase);
    w.onmessage = (ev: MessageEvent<Reply>) => this.onReply(w, ev.data);
    w.onerror = (ev) => {
      ev.preventDefault?.();
      this.crash(w, `the ${this.opts.name} worker failed: ${ev.message || 'unknown error'}`, false);
    };
    const init: InitBody = { type: 'init', wasmBase: this.wasmBase };
    void this.post(w, init).catch((e: unknown) => {
      if (!(e instanceof EngineCrash)) console.error(`${this.opts.name} init failed:`, e);
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
      p.resolve(this.opts.decode ? this.opts.decode(r.result) : r.result);
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
      const old: AskOld<B, P> | null = canHandOver ? <T extends B>(body: T) => this.post(w, body) as Promise<P[T['type']]> : null;
      const handover = (this.opts.successor ? await this.opts.successor(old).catch(() => null) : null) ?? [];
      w.terminate();
      this.failPending(w, `the ${this.opts.name} was restarted after: ${reason}`);
      this.worker = null;
      if (this.crashesInARow > this.opts.maxRestarts) {
        this.dead = `the ${this.opts.name} crashed ${this.crashesInARow} times in a row (last: ${reason}); reload the page`;
        return;
      }
      this.handover = handover;
      if (this.opts.eager) await this.ensure();
    })().finally(() => {
      this.restarting = null;
    });
    for (const fn of this.listeners) fn(reason);
  }

  /** The worker, started (a successor gets its handover requests first). */
  private async ensure(): Promise<WorkerLike> {
    if (this.worker) return this.worker;
    const w = (this.worker = this.start());
    const handover = this.handover;
    this.handover = null;
    if (handover) {
      this.restarts++;
      for (const body of handover) await this.post(w, body).catch(() => undefined);
    }
    return w;
  }

  private failPending(w: WorkerLike, why: string): void {
    for (const [id, p] of this.pending)
      if (p.worker === w) {
        this.pending.delete(id);
        p.reject(new EngineCrash(why));
      }
  }

  private post(w: WorkerLike, body: Any<B>, onProgress?: ProgressFn, signal?: AbortSignal): Promise<unknown> {
    const id = this.next++;
    const p = new Promise((resolve, reject) => {
      this.pending.set(id, { worker: w, type: body.type, resolve, reject, progress: onProgress });
      w.postMessage({ ...body, id });
    });
    if (signal) {
      const cancel = () => {
        if (this.pending.get(id)?.worker === w) w.postMessage({ id, cancel: true } satisfies Cancel);
      };
      if (signal.aborted) cancel();
      else signal.addEventListener('abort', cancel, { once: true });
      void p.finally(() => signal.removeEventListener('abort', cancel)).catch(() => undefined);
    }
    return p;
  }

  async call<T extends B>(body: T, onProgress?: ProgressFn, signal?: AbortSignal): Promise<P[T['type']]> {
    while (this.restarting) await this.restarting;
    if (this.dead) throw new Error(this.dead);
    return this.post(await this.ensure(), body, onProgress, signal) as Promise<P[T['type']]>;
  }

  /** Ends the worker; its requests fail with EngineCrash. */
  terminate(): void {
    if (!this.worker) return;
    this.worker.terminate();
    this.failPending(this.worker, `the ${this.opts.name} worker was terminated`);
    this.worker = null;
  }
}
