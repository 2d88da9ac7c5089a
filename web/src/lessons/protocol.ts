// The lesson worker's requests and replies, carried by the shared worker
// protocol (rpc/protocol.ts), as the engine worker's are.
import type { Api, InitBody } from '../rpc/protocol';
import type { ChoiceResult, ClickResult, Extras, PreparedVariant } from './backend';
import type { Lesson, SandboxRun } from './format';
import type { StatePicture } from './goal';

export type LessonRequestBody =
  | InitBody
  | { type: 'load'; lesson: Lesson; scenarios: Record<string, string> }
  | { type: 'prepare'; lessonId: string; variant: string }
  | { type: 'choices'; lessonId: string; qid: string }
  | { type: 'click'; lessonId: string; qid: string; target: number | string }
  | { type: 'candidates'; lessonId: string; qid: string }
  | { type: 'sandbox'; lessonId: string; lines: string[] }
  | { type: 'extras'; lessonId: string }
  | { type: 'goal'; lessonId: string };

export type LessonReplyPayload = {
  init: null;
  load: null;
  prepare: PreparedVariant;
  choices: ChoiceResult[];
  click: ClickResult;
  candidates: (number | string)[];
  sandbox: SandboxRun;
  extras: Extras;
  goal: StatePicture | null;
};

/** What the lesson store asks of the lesson backend (a worker, or in process in tests). */
export type LessonApi = Api<LessonRequestBody, LessonReplyPayload>;
