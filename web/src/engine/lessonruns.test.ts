// The lesson backend keeps parsed runs and re-opens them by restoring a
// checkpoint at their start (lessons/backend.ts): every position, window,
// data cell and claim is the one fresh sessions give.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { LessonBackend } from '../lessons/backend';
import type { Lesson } from '../lessons/format';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { loadModule, ROOT } from './testing';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
const lessonOf = (id: string) => JSON.parse(read(`lessons/${id}/lesson.json`)) as Lesson;
function scenariosOf(l: Lesson): Record<string, string> {
  const out: Record<string, string> = {};
  for (const sc of [l.scenario, l.sandbox.scenario, ...(l.variants ?? []).map((v) => v.scenario)]) if (sc && 'file' in sc) out[sc.file] = read(sc.file);
  return out;
}

/** Everything the backend answers for a lesson: each variant's positions
 * and stop views, every question's choices, the data tables and claims. */
function answers(b: LessonBackend, l: Lesson): string {
  b.load(l, scenariosOf(l));
  const out: unknown[] = [];
  for (const v of ['base', ...(l.variants ?? []).map((x) => x.id)]) out.push(b.prepare(l.id, v));
  for (const q of l.questions) out.push(q.kind === 'choice' ? b.choices(l.id, q.id) : b.candidates(l.id, q.id));
  out.push(b.extras(l.id));
  return JSON.stringify(out);
}

describe('lesson backend: re-opened runs', () => {
  test.each(['06-sheaves-regression', '09-bisection-crash', '05-sheaves'])('%s: the same answers as fresh sessions', (id) => {
    const l = lessonOf(id);
    expect(answers(new LessonBackend(mod), l)).toBe(answers(new LessonBackend(mod, { reuseRuns: false }), l));
  }, 300_000);
});
