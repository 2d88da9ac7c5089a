// The lesson worker's typed {id, type} messages (the same shape as the
// engine protocol, engine/protocol.ts): one reply per request.
import type { ChoiceResult, ClickResult, Extras, PreparedVariant } from './backend';
import type { Lesson, SandboxRun } from './format';

export type LessonRequest =
  | { id: number; type: 'init'; wasmBase: string }
  | { id: number; type: 'load'; lesson: Lesson; scenarios: Record<string, string> }
  | { id: number; type: 'prepare'; lessonId: string; variant: string }
  | { id: number; type: 'choices'; lessonId: string; qid: string }
  | { id: number; type: 'click'; lessonId: string; qid: string; target: number | string }
  | { id: number; type: 'candidates'; lessonId: string; qid: string }
  | { id: number; type: 'sandbox'; lessonId: string; lines: string[] }
  | { id: number; type: 'extras'; lessonId: string };

type Bare<T> = T extends { id: number } ? Omit<T, 'id'> : never;
export type LessonRequestBody = Bare<LessonRequest>;

export type LessonReplyPayload = {
  init: null;
  load: null;
  prepare: PreparedVariant;
  choices: ChoiceResult[];
  click: ClickResult;
  candidates: (number | string)[];
  sandbox: SandboxRun;
  extras: Extras;
};

/** trap: the worker's wasm instance trapped (it is replaced, client.ts) */
export type LessonReply = { id: number; type: 'ok'; result: unknown } | { id: number; type: 'error'; message: string; trap?: boolean };

/** What the lesson store asks of the lesson backend (a worker, or in process in tests). */
export interface LessonApi {
  call<T extends LessonRequestBody>(body: T): Promise<LessonReplyPayload[T['type']]>;
}
