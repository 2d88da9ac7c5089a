// The lesson worker replaced after a trap (client.ts, on the shared RPC
// client): a new worker gets the lessons loaded again and the request that
// trapped is retried once.
import { describe, expect, test } from 'vitest';
import type { Lesson } from './format';
import type { Message, Reply } from '../rpc/protocol';
import { LessonClient } from './client';
import type { LessonRequestBody } from './protocol';

/** A worker that answers 'load' and 'prepare'; `trapOn` requests trap. */
class FakeLessonWorker {
  onmessage: ((ev: MessageEvent<Reply>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  got: string[] = [];
  terminated = false;
  constructor(
    readonly n: number,
    readonly trapOn: Set<string>,
  ) {}
  postMessage(req: Message<LessonRequestBody>): void {
    this.got.push(req.type === 'load' ? `load ${req.lesson.id}` : req.type);
    const r: Reply = this.trapOn.has(req.type)
      ? { id: req.id, type: 'error', message: 'RuntimeError: unreachable', trap: true }
      : { id: req.id, type: 'ok', result: req.type === 'prepare' ? { worker: this.n } : null, ms: 0 };
    setTimeout(() => !this.terminated && this.onmessage?.({ data: r } as MessageEvent<Reply>), 0);
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('lesson worker restart', () => {
  test('a trap replaces the worker, reloads the lessons and retries the request once', async () => {
    const workers: FakeLessonWorker[] = [];
    const traps = [new Set(['prepare']), new Set<string>()];
    const lazy = new LessonClient('wasm/', () => {
      const w = new FakeLessonWorker(workers.length, traps[workers.length] ?? new Set(['prepare']));
      workers.push(w);
      return w;
    });
    await lazy.call({ type: 'load', lesson: { id: '01-anatomy' } as Lesson, scenarios: {} });
    const r = (await lazy.call({ type: 'prepare', lessonId: '01-anatomy', variant: 'base' })) as unknown as { worker: number };
    expect(r.worker).toBe(1);
    expect(lazy.restarts).toBe(1);
    expect(workers[0].terminated).toBe(true);
    expect(workers[1].got).toEqual(['init', 'load 01-anatomy', 'prepare']);
  });

  test('a second trap on the retry fails the request (no loop)', async () => {
    const workers: FakeLessonWorker[] = [];
    const lazy = new LessonClient('wasm/', () => {
      const w = new FakeLessonWorker(workers.length, new Set(['prepare']));
      workers.push(w);
      return w;
    });
    await expect(lazy.call({ type: 'prepare', lessonId: 'x', variant: 'base' })).rejects.toThrow('RuntimeError: unreachable');
    expect(workers).toHaveLength(2);
  });
});
