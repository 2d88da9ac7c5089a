// The page side of the lesson worker: a promise per request. A trap in the
// worker (its wasm instance may be corrupt) replaces it: LazyLessonClient
// starts a new one, loads the lessons again and retries the request once.
import { EngineCrash } from '../engine/client';
import type { LessonBackend } from './backend';
import type { LessonApi, LessonReply, LessonReplyPayload, LessonRequestBody } from './protocol';

export class LessonClient implements LessonApi {
  /** the worker trapped or died: replace it */
  broken = false;
  private next = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(private readonly worker: Worker) {
    worker.onmessage = (ev: MessageEvent<LessonReply>) => {
      const r = ev.data;
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.type === 'ok') p.resolve(r.result);
      else if (r.trap) {
        this.broken = true;
        p.reject(new EngineCrash(r.message));
      } else p.reject(new Error(r.message));
    };
    worker.onerror = (ev) => {
      this.broken = true;
      const err = new EngineCrash(`lesson worker: ${ev.message}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
  }

  /** Starts the worker; `wasmBase` is the folder of slubviz_core.{mjs,wasm}. */
  static create(wasmBase: string): LessonClient {
    const c = new LessonClient(new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));
    void c.call({ type: 'init', wasmBase }).catch((e: unknown) => console.warn('lesson worker init failed:', e));
    return c;
  }

  terminate(): void {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new EngineCrash('the lesson worker was replaced'));
    this.pending.clear();
  }

  call<T extends LessonRequestBody>(body: T): Promise<LessonReplyPayload[T['type']]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...body, id });
    });
  }
}

/** A LessonClient started on the first request (the player may never be
 * opened), and started again after a trap: the lessons loaded into the old
 * one are loaded again and the failed request is retried once. */
export class LazyLessonClient implements LessonApi {
  private c: LessonClient | null = null;
  private loads = new Map<string, Extract<LessonRequestBody, { type: 'load' }>>();
  restarts = 0;
  constructor(
    private readonly wasmBase: string,
    private readonly start: (wasmBase: string) => LessonClient = (b) => LessonClient.create(b),
  ) {}

  private async client(): Promise<LessonClient> {
    if (this.c?.broken) {
      this.c.terminate();
      this.c = null;
      this.restarts++;
      const c = this.start(this.wasmBase);
      this.c = c;
      for (const l of this.loads.values()) await c.call(l);
    }
    this.c ??= this.start(this.wasmBase);
    return this.c;
  }

  async call<T extends LessonRequestBody>(body: T): Promise<LessonReplyPayload[T['type']]> {
    if (body.type === 'load') this.loads.set(body.lesson.id, body as Extract<LessonRequestBody, { type: 'load' }>);
    try {
      return await (await this.client()).call(body);
    } catch (e) {
      if (!(e instanceof EngineCrash)) throw e;
      return (await this.client()).call(body);
    }
  }
}

/** The backend in process (tests): the worker's dispatch minus postMessage. */
export class LocalLessons implements LessonApi {
  constructor(private readonly backend: LessonBackend) {}
  async call<T extends LessonRequestBody>(req: T): Promise<LessonReplyPayload[T['type']]> {
    const b = this.backend;
    const body = req as LessonRequestBody;
    let r: unknown;
    switch (body.type) {
      case 'init':
        r = null;
        break;
      case 'load':
        b.load(body.lesson, body.scenarios);
        r = null;
        break;
      case 'prepare':
        r = b.prepare(body.lessonId, body.variant);
        break;
      case 'choices':
        r = b.choices(body.lessonId, body.qid);
        break;
      case 'click':
        r = b.click(body.lessonId, body.qid, body.target);
        break;
      case 'candidates':
        r = b.candidates(body.lessonId, body.qid);
        break;
      case 'sandbox':
        r = b.sandbox(body.lessonId, body.lines);
        break;
      case 'extras':
        r = b.extras(body.lessonId);
        break;
    }
    return structuredClone(r) as LessonReplyPayload[T['type']];
  }
}
