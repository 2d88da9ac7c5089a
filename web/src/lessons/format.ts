// Types of lesson format 1 (docs/lessons.md) and the typed face of the
// shared lesson engine (lessons/engine/*.mjs): the same pure ES modules the
// lesson check runs under Node, imported here unchanged. They carry no type
// declarations, so each import is typed once below.

// @ts-ignore -- plain ES module without declarations (typed below)
import * as predicatesJs from '../../../lessons/engine/predicates.mjs';
// @ts-ignore -- plain ES module without declarations (typed below)
import * as formatJs from '../../../lessons/engine/lesson-format.mjs';
// @ts-ignore -- plain ES module without declarations (typed below)
import * as runnerJs from '../../../lessons/engine/runner.mjs';
// @ts-ignore -- plain ES module without declarations (typed below)
import * as checkJs from '../../../lessons/engine/check.mjs';
// @ts-ignore -- plain ES module without declarations (typed below)
import * as vocabularyJs from '../../../lessons/engine/vocabulary.mjs';
// @ts-ignore -- plain ES module without declarations (typed below)
import * as translationJs from '../../../lessons/engine/translation.mjs';
import type { Manifest } from '../engine/types';
import { t } from '../i18n';

/** A predicate or value expression (docs/lessons.md, "Predicates"): JSON. */
export type Predicate = boolean | { [k: string]: unknown };

export type Position =
  | { op: number; event?: Record<string, unknown>; nth?: number }
  | { seq: number }
  | { end: true };

export type Scenario = { file: string } | { inline: string };
export type Sets = Record<string, string | number | boolean>;

export interface IndexEntry {
  id: string;
  title: string;
  summary: string;
  prerequisites: string[];
  seeds: string[];
  preset?: string;
  minutes?: number;
  /** the languages lesson.<lang>.json translates it to, with its title and summary there */
  translations?: Record<string, { title: string; summary: string }>;
}

/** lessons/<id>/lesson.<lang>.json (docs/lessons.md, "Translations"): the
 * lesson's texts by id; translation.mjs checks and applies it. */
export interface LessonTranslation {
  format: number;
  lang: string;
  id: string;
  prose: string;
  title: string;
  [texts: string]: unknown;
}

export interface LessonIndex {
  format: number;
  lessons: IndexEntry[];
}

/** One entry of lessons/sources.json (docs/lessons.md, "Sources"). */
export interface LessonSource {
  title: string;
  where: string;
  date: string;
  authors?: string;
  what: string;
  url?: string;
  url_what?: string;
}

export type Highlight =
  | { slab: number }
  | { obj: number }
  | { sheaf: number }
  | { cpu: number }
  | { node: number }
  | { list: string }
  | { stat: string }
  | { sysfs: string }
  | { slabinfo: string }
  | { table: string };

export interface Stop {
  id: string;
  title: string;
  at: Position;
  variant?: string;
  cache?: string;
  cpu?: number;
  focus: string[];
  highlight: Highlight[];
  text: string;
}

export interface Choice {
  id: string;
  text: string;
  check: Predicate;
}

interface QuestionBase {
  id: string;
  after?: string;
  before?: string;
  variant?: string;
  at: Position;
  reveal: Position;
  prompt: string;
  explanation: string;
  /** shown after a wrong answer: points at the mechanism, never the answer */
  hint: string;
  cache?: string;
}

export interface ChoiceQuestion extends QuestionBase {
  kind: 'choice';
  choices: Choice[];
  answer: string | string[];
}

export type ClickTarget = 'slab' | 'object' | 'sheaf' | 'cpu' | 'node' | 'list';

export interface ClickQuestion extends QuestionBase {
  kind: 'click';
  target: ClickTarget;
  check: Predicate;
  answer: number | string;
  unique?: boolean;
}

export type Question = ChoiceQuestion | ClickQuestion;

export interface Variant {
  id: string;
  label: string;
  preset?: string;
  sets?: Sets;
  scenario?: Scenario;
}

export interface Claim {
  id: string;
  text: string;
  variant?: string;
  at?: Position;
  from?: Position;
  check?: Predicate;
  compare?: {
    left: { variant?: string; value: Predicate; at?: Position };
    op: string;
    right: { variant?: string; value: Predicate; at?: Position };
    factor?: number;
  };
}

export type Cell = string | number | boolean | null;

export interface DataTable {
  id: string;
  title: string;
  source: string;
  columns: string[];
  rows: Cell[][];
  model?: { row: number; column: string; variant?: string; at?: Position; value: Predicate }[];
  evidence?: string[];
}

export interface Goal {
  id: string;
  text: string;
  check: Predicate;
}

export interface Sandbox {
  prompt: string;
  hint?: string;
  scenario: Scenario;
  preset?: string;
  sets?: Sets;
  cache: string;
  /** op lines, and (with allow.steps) step tokens of `steps` lines */
  limit: { ops?: number; steps?: number };
  /** steps: the student may write `steps` lines (an explicit schedule) */
  allow?: { ops?: string[]; cpus?: number[]; caches?: string[]; steps?: boolean };
  /** a run stopped by a kernel-style report is the goal, not an error */
  expect_report?: boolean;
  goals: Goal[];
  solution: string[];
  wrong: string[];
}

export interface Lesson {
  format: number;
  id: string;
  title: string;
  seeds: { file: string; what: string }[];
  commits: { id: string; title: string; in_seed: boolean; note?: string }[];
  prose: string;
  scenario: Scenario;
  preset?: string;
  sets?: Sets;
  cache: string;
  expect_report?: boolean;
  variants?: Variant[];
  stops: Stop[];
  questions: Question[];
  claims?: Claim[];
  data?: { tables: DataTable[] };
  sandbox: Sandbox;
}

/** What a predicate reads (predicates.mjs requirements()). */
export interface Needs {
  snapshot: boolean;
  /** counters (read from the snapshot) */
  stats: boolean;
  /** the stats text's page_alloc block */
  pageAlloc?: boolean;
  slabinfo: boolean;
  sysfs: string[];
  events: boolean;
  before: boolean;
  target?: boolean;
  /** svz_profile_json (a timed run) */
  profile?: boolean;
  /** svz_run_error and svz_reports */
  run?: boolean;
  caches?: string[];
}

/** A state captured at a position (runner.mjs captureState()). */
export interface CapturedState {
  snapshot?: string;
  stats?: string;
  slabinfo?: string;
  sysfs?: Record<string, string>;
  profile?: string;
  runError?: string;
  reports?: string;
}

/** The context predicates are evaluated in. */
export interface PredicateContext {
  after?: CapturedState | null;
  before?: CapturedState | null;
  events?: unknown[];
  target?: number | string;
}

export interface Probe {
  id: string;
  at: Position;
  from?: Position;
  need: Partial<Needs>;
  events?: boolean;
}

export interface ProbeResult {
  ctx?: PredicateContext;
  steps?: { at: number; from: number };
  error?: string;
}

/** The session methods the runner drives (web engine Session has them all). */
export interface RunnerSession {
  step(): number;
  runToOp(op: number): number;
  runAll(): number;
  opsTotal(): number;
  opsDone(): number;
  seq(): number;
  snapshotJson(): string;
  eventsJson(from: number, max: number): string;
  statsText(): string;
  slabinfo(): string;
  sysfs(cache: string): string;
  runError(): string;
  reports(): string;
  profileJson(): string;
  close(): void;
}

export type OpenFn = (trace: string, opts: { preset: string; sets: string | null }) => RunnerSession;

export interface SandboxRun {
  ok: boolean;
  goals: { id: string; ok: boolean; message: string }[];
  errors: string[];
}

type PredicatesModule = {
  PREDICATE_FORMAT: number;
  evaluate(p: Predicate, ctx: PredicateContext): boolean;
  explain(p: Predicate, ctx: PredicateContext): { ok: boolean; value?: unknown; error?: string };
  requirements(p: Predicate): Needs;
  value(p: Predicate, ctx: PredicateContext): unknown;
};

type FormatModule = {
  LESSON_FORMAT: number;
  VIEWS: string[];
  TARGETS: string[];
  setsText(sets: Sets | undefined): string;
  runConfig(lesson: Lesson, variantId?: string): { scenario: Scenario; preset: string; sets: Sets };
  describePosition(pos: Position): string;
  sandboxTrace(base: string, lines: string[]): string;
  isStepsLine(line: string): boolean;
  sandboxLines(text: string | string[]): string[];
  checkSandboxLines(sb: Sandbox, lines: string[]): string[];
  validateIndex(index: unknown): string[];
  validateLesson(lesson: unknown, entry?: IndexEntry | null): string[];
  isListId(s: unknown): boolean;
  clickCandidates(snap: unknown, kind: ClickTarget, cacheName?: string): (number | string)[];
  missingHighlight(snap: unknown, h: Highlight, cacheName: string): string | null;
  lessonSequence(lesson: Lesson): ({ kind: 'stop'; stop: Stop; index: number } | { kind: 'question'; question: Question })[];
};

type RunnerModule = {
  captureState(session: RunnerSession, need: Partial<Needs>): CapturedState;
  runProbes(open: () => RunnerSession, probes: Probe[]): { results: Map<string, ProbeResult>; info: { opsTotal: number; stepsTotal: number; runError: string } | null };
};

/** The core's names the lesson engine uses (lessons/engine/vocabulary.mjs). */
export interface Vocabulary {
  ops: string[];
  presets: string[];
  settings: string[];
  statEras: Map<string, string[]>;
  nodeCounters: string[];
  eventKinds: string[];
  kernelFunctions: string[];
  locations: string[];
  eventRing: number;
}

type VocabularyModule = {
  useManifest(m: Manifest): Vocabulary;
  vocabulary(): Vocabulary;
};

type CheckModule = {
  mergeReq(list: Needs[]): Needs;
  runSandbox(lesson: Lesson, lines: string[], env: { open: OpenFn; readScenario: (file: string) => string }): SandboxRun;
};

export const predicates = predicatesJs as PredicatesModule;
export const lessonFormat = formatJs as FormatModule;
export const runner = runnerJs as RunnerModule;
export const check = checkJs as CheckModule;
export const lessonVocabulary = vocabularyJs as VocabularyModule;
export const lessonTranslation = translationJs as { localizeLesson(lesson: Lesson, tr: LessonTranslation | null | undefined): Lesson };

export const LESSON_FORMAT: number = lessonFormat.LESSON_FORMAT;

/** Panel ids of the app per focusable view (text tabs live in panel "text"). */
export const TEXT_TABS = ['slabinfo', 'sysfs', 'stats', 'events'] as const;
export type TextTabView = (typeof TEXT_TABS)[number];

/** The player's item sequence: the stops and questions in the lesson's
 * order (lessonSequence: a question before or after the stop it names),
 * then the sandbox. */
export type Item = { kind: 'stop'; stop: Stop; index: number } | { kind: 'question'; question: Question } | { kind: 'sandbox' };

export function lessonItems(lesson: Lesson): Item[] {
  return [...lessonFormat.lessonSequence(lesson), { kind: 'sandbox' }];
}

/** The stop a question is asked beside (`after` or `before`): its cache, CPU and views. */
export function anchorStop(lesson: Lesson, q: Question): Stop | undefined {
  const id = q.after ?? q.before;
  return lesson.stops.find((s) => s.id === id);
}

/** The item index of stop number `stopIndex` (0-based). */
export function itemOfStop(items: Item[], stopIndex: number): number {
  const i = items.findIndex((it) => it.kind === 'stop' && it.index === stopIndex);
  return i < 0 ? 0 : i;
}

export function scenarioPath(sc: Scenario): string | null {
  return 'file' in sc ? sc.file : null;
}

/** A run of a lesson: the lesson's own ("base"), a variant, or the sandbox. */
export interface RunConfig {
  scenario: Scenario;
  preset: string;
  sets: Sets;
}

export function runOf(lesson: Lesson, variant: string | undefined): RunConfig {
  return lessonFormat.runConfig(lesson, variant ?? 'base');
}

/** The sandbox's run. A starting trace that waits for the student's
 * `steps` (schedule explicit) runs serially until they give some. */
export function sandboxRun(lesson: Lesson, lines: string[] = []): RunConfig {
  const sb = lesson.sandbox;
  const waiting = sb.allow?.steps === true && !lines.some((l) => lessonFormat.isStepsLine(l));
  return { scenario: sb.scenario, preset: sb.preset ?? '', sets: { ...(sb.sets ?? {}), ...(waiting ? { schedule: 'serial' } : {}) } };
}

/** The step tokens of a sandbox attempt's `steps` lines. */
export function stepTokens(lines: string[]): number {
  return lines.filter((l) => lessonFormat.isStepsLine(l)).reduce((n, l) => n + l.trim().split(/\s+/).length - 1, 0);
}

/** Append a CPU step to an attempt: to its last line if that is a `steps`
 * line, else as a new `steps` line. */
export function appendStep(lines: string[], token: string): string[] {
  const last = lines[lines.length - 1];
  if (last === undefined || !lessonFormat.isStepsLine(last)) return [...lines, `steps ${token}`];
  const toks = last.trim().split(/\s+/);
  // one more micro-step of the CPU the line ends with: c0 -> c0x2 -> c0x3 (one token)
  const one = /^c(\d+)$/.exec(token);
  const prev = /^c(\d+)(?:x(\d+))?$/.exec(toks[toks.length - 1]);
  if (one && prev && prev[1] === one[1] && toks.length > 1) toks[toks.length - 1] = `c${one[1]}x${Number(prev[2] ?? 1) + 1}`;
  else toks.push(token);
  return [...lines.slice(0, -1), toks.join(' ')];
}

/** Correct choice ids of a choice question. */
export function answerIds(q: ChoiceQuestion): string[] {
  return Array.isArray(q.answer) ? q.answer : [q.answer];
}

/** A position in words, for the player (lessonFormat.describePosition is for messages). */
export function positionText(pos: Position): string {
  if ('end' in pos) return t('pos.end');
  if ('seq' in pos) return t('pos.seq', { seq: pos.seq });
  if (pos.op === -1) return t('pos.start');
  if (pos.event) {
    const { kind, ...rest } = pos.event as Record<string, unknown>;
    const what = [kind, ...Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)].filter(Boolean).join(' ');
    const nth = pos.nth ?? 0;
    return nth === 0 ? t('pos.firstEvent', { op: pos.op, what }) : t('pos.nthEvent', { op: pos.op, n: nth + 1, what });
  }
  return t('pos.endOfOp', { op: pos.op });
}
