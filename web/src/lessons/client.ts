// The page side of the lesson worker: a promise per request.
import type { LessonBackend } from './backend';
import type { LessonApi, LessonReply, LessonReplyPayload, LessonRequestBody } from './protocol';

export class LessonClient implements LessonApi {
  private next = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(private readonly worker: Worker) {
    worker.onmessage = (ev: MessageEvent<LessonReply>) => {
      const r = ev.data;
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.type === 'ok') p.resolve(r.result);
      else p.reject(new Error(r.message));
    };
    worker.onerror = (ev) => {
      const err = new Error(`lesson worker: ${ev.message}`);
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

  call<T extends LessonRequestBody>(body: T): Promise<LessonReplyPayload[T['type']]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...body, id });
    });
  }
}

/** A LessonClient started on the first request (the player may never be opened). */
export class LazyLessonClient implements LessonApi {
  private c: LessonClient | null = null;
  constructor(private readonly wasmBase: string) {}
  call<T extends LessonRequestBody>(body: T): Promise<LessonReplyPayload[T['type']]> {
    this.c ??= LessonClient.create(this.wasmBase);
    return this.c.call(body);
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
