// The lesson player under Node: the backend on the browser wasm module (the
// same code the lesson worker runs) and the lesson store driving a real app
// store, through a whole lesson, with progress kept across a "reload".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { Engine } from '../engine/engine';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { LocalEngine, loadModule, ROOT } from '../engine/testing';
import { Store } from '../state/store';
import { LessonBackend } from './backend';
import { LocalLessons } from './client';
import { answerIds, itemOfStop, lessonItems, type Lesson } from './format';
import { decodeLessonLink, encodeLessonLink } from './link';
import { MemoryProgress, summarizeProgress } from './progress';
import { LessonStore, runAppConfig } from './store';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const lessonOf = (id: string) => JSON.parse(read(`lessons/${id}/lesson.json`)) as Lesson;

function scenariosOf(l: Lesson): Record<string, string> {
  const out: Record<string, string> = {};
  for (const sc of [l.scenario, l.sandbox.scenario, ...(l.variants ?? []).map((v) => v.scenario)]) if (sc && 'file' in sc) out[sc.file] = read(sc.file);
  return out;
}

function makeStores(progress = new MemoryProgress()) {
  const env = {
    fetchText: async (path: string) => read(path),
    setTimeout: () => 0,
    clearTimeout: () => {},
    now: () => 0,
  };
  const app = new Store(new LocalEngine(new Engine(mod)), env);
  const lessons = new LessonStore(app, new LocalLessons(new LessonBackend(mod)), progress, { fetchText: env.fetchText });
  return { app, lessons, progress };
}

describe('lesson format helpers', () => {
  test('items: each question after the stop it names, the sandbox last', () => {
    const l = lessonOf('01-anatomy');
    const items = lessonItems(l);
    expect(items.filter((i) => i.kind === 'stop')).toHaveLength(l.stops.length);
    expect(items.filter((i) => i.kind === 'question')).toHaveLength(l.questions.length);
    expect(items[items.length - 1].kind).toBe('sandbox');
    const names = items.map((i) => (i.kind === 'stop' ? i.stop.id : i.kind === 'question' ? i.question.id : 'sandbox'));
    expect(names.slice(0, 3)).toEqual(['start', 'q-active-first', 'new-slab']);
    expect(names.indexOf('q-flush-slab')).toBe(names.indexOf('remote-free') + 1);
    expect(items[itemOfStop(items, 3)]).toMatchObject({ kind: 'stop', index: 3 });
  });

  test('share links: lesson id + stop index', () => {
    expect(encodeLessonLink({ lesson: '05-sheaves', stop: 3 })).toBe('#lesson=05-sheaves&stop=3');
    expect(decodeLessonLink('#lesson=05-sheaves&stop=3')).toEqual({ lesson: '05-sheaves', stop: 3 });
    expect(decodeLessonLink('#lesson=05-sheaves&stop=barn-get')).toEqual({ lesson: '05-sheaves', stop: 'barn-get' });
    expect(decodeLessonLink('#lesson=06-sheaves-regression')).toEqual({ lesson: '06-sheaves-regression' });
    expect(decodeLessonLink('#lessons')).toEqual({ lesson: null });
    expect(decodeLessonLink('#s=basics&seq=4')).toBeNull();
    expect(decodeLessonLink('')).toBeNull();
  });

  test('run config: settings in order, seed apart', () => {
    const c = runAppConfig({ scenario: { inline: '' }, preset: 'v5.12', sets: { online: 1, present: 1, possible: 224, seed: 7 } });
    expect(c).toEqual({ preset: 'v5.12', seed: '7', switches: { online: '1', present: '1', possible: '224' } });
  });

  test('progress summary', () => {
    const s = summarizeProgress({ id: 'x', seen: ['a', 'b'], questions: { q1: { first: 'y', correct: true, revealed: true } }, goal: true, sandbox: [], item: 0, updated: 0 }, ['a', 'b'], ['q1', 'q2']);
    expect(s).toMatchObject({ stopsSeen: 2, answered: 1, correct: 1, goal: true, done: false });
  });
});

describe('lesson backend (the lesson worker, in process)', () => {
  test('lesson 1: positions, choice and click checks, sandbox', () => {
    const b = new LessonBackend(mod);
    const l = lessonOf('01-anatomy');
    b.load(l, scenariosOf(l));
    const p = b.prepare(l.id, 'base');
    expect(p.errors).toEqual({});
    for (const s of l.stops) expect(p.steps[s.id], s.id).toBeDefined();
    expect(p.steps.start.at).toBe(0);
    expect(p.watch.start.slabinfo.map((x) => x.cache)).toEqual(['RAW', 'kvm_vcpu']);
    expect(p.watch.sysfs.sysfs.map((x) => x.attr)).toEqual(['partial', 'cpu_slabs', 'objs_per_slab', 'order']);
    for (const q of l.questions) {
      if (q.kind === 'choice') {
        const r = b.choices(l.id, q.id);
        expect(r.filter((c) => c.ok).map((c) => c.id).sort(), q.id).toEqual([...answerIds(q)].sort());
      } else {
        expect(b.click(l.id, q.id, q.answer).ok, q.id).toBe(true);
        const cands = b.candidates(l.id, q.id);
        expect(cands).toContain(q.answer);
        const other = cands.find((c) => String(c) !== String(q.answer))!;
        expect(b.click(l.id, q.id, other).ok).toBe(false);
      }
    }
    expect(b.sandbox(l.id, l.sandbox.solution).ok).toBe(true);
    const wrong = b.sandbox(l.id, l.sandbox.wrong);
    expect(wrong.ok).toBe(false);
    expect(wrong.goals.some((g) => !g.ok)).toBe(true);
    const over = b.sandbox(l.id, [...l.sandbox.solution, 'c0 alloc UDPv6 zz']);
    expect(over.errors.join(' ')).toMatch(/limit is 4/);
  });

  test('every lesson: each stop and question resolves on its run; right answers are accepted, others not', () => {
    const index = JSON.parse(read('lessons/index.json')) as { lessons: { id: string }[] };
    for (const { id } of index.lessons) {
      const b = new LessonBackend(mod);
      const l = lessonOf(id);
      b.load(l, scenariosOf(l));
      const variants = new Set([...l.stops.map((s) => s.variant ?? 'base'), ...l.questions.map((q) => q.variant ?? 'base')]);
      for (const v of variants) expect(b.prepare(id, v).errors, `${id} ${v}`).toEqual({});
      for (const q of l.questions) {
        if (q.kind === 'choice') {
          const ok = b.choices(id, q.id).filter((c) => c.ok).map((c) => c.id).sort();
          expect(ok, `${id} ${q.id}`).toEqual([...answerIds(q)].sort());
        } else {
          expect(b.click(id, q.id, q.answer).ok, `${id} ${q.id}`).toBe(true);
          const accepted = b.candidates(id, q.id).filter((c) => b.click(id, q.id, c).ok);
          expect(accepted.map(String), `${id} ${q.id}`).toContain(String(q.answer));
          if (q.unique !== false) expect(accepted, `${id} ${q.id}`).toHaveLength(1);
        }
      }
    }
  });

  test('lesson 4: data tables and claims on the variants', () => {
    const b = new LessonBackend(mod);
    const l = lessonOf('04-slab-order');
    b.load(l, scenariosOf(l));
    const x = b.extras(l.id);
    const nulls = (l.data?.tables ?? []).flatMap((t) => t.rows.flatMap((r, i) => r.map((c, j) => (c === null ? `${t.id}:${i}:${t.columns[j]}` : null)))).filter(Boolean);
    for (const k of nulls) expect(x.cells[k as string], k as string).not.toBeUndefined();
    expect(x.claims.map((c) => c.id).sort()).toEqual((l.claims ?? []).map((c) => c.id).sort());
    expect(x.claims.filter((c) => !c.ok)).toEqual([]);
  });
});

describe('lesson store driving the app store', () => {
  test('a link to an unknown lesson names it and opens no run', async () => {
    const { app, lessons } = makeStores();
    await lessons.openLink(decodeLessonLink('#lesson=no-such-lesson&stop=2')!);
    await lessons.idle();
    expect(lessons.getState().error).toMatch(/^There is no lesson "no-such-lesson"\. The lessons are: 01-anatomy, /);
    expect(app.getState().frame).toBeNull();
    // not a path: checked against the index before anything is fetched
    expect(decodeLessonLink('#lesson=../../etc')).toEqual({ lesson: '../../etc' });
    await lessons.openLink({ lesson: '../../etc' });
    await lessons.idle();
    expect(lessons.getState().error).toMatch(/^There is no lesson "\.\.\/\.\.\/etc"/);
  });

  test('the list loads the public sources every lesson cites', async () => {
    const { lessons } = makeStores();
    await lessons.showList();
    await expect.poll(() => Object.keys(lessons.getState().sources).length).toBeGreaterThan(0);
    const { index, sources } = lessons.getState();
    for (const e of index!) {
      for (const id of (JSON.parse(read(`lessons/${e.id}/lesson.json`)) as Lesson).seeds.map((s) => s.file)) {
        expect(sources[id]?.title, `${e.id} cites ${id}`).toMatch(/\S/);
        expect(sources[id].date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
    expect(sources['004_1b4526f30475b866.txt'].title).toBe('[Regression] mm:slab/sheaves: severe performance regression in cross-CPU slab allocation');
  });

  test('opening a lesson closes A/B compare and loads the lesson\'s translations', async () => {
    const { app, lessons } = makeStores();
    await app.loadScenario('basics');
    app.setCompare({ preset: 'v6.19' });
    expect(app.getState().compare).not.toBeNull();
    await lessons.openLesson('01-anatomy');
    await lessons.idle();
    expect(app.getState().compare).toBeNull();
    expect(lessons.getState().translations['01-anatomy'].ko.json.id).toBe('01-anatomy');
    expect(lessons.getState().translations['01-anatomy'].ko.prose).toMatch(/^# SLUB의 구조/);
  });

  test('lesson 1 end to end: stops, answers, reveals, the sandbox goal; progress survives a reload', async () => {
    const { app, lessons, progress } = makeStores();
    await lessons.showList();
    expect(lessons.getState().index?.map((e) => e.id)[0]).toBe('01-anatomy');
    await lessons.openLesson('01-anatomy');
    await lessons.idle();
    const l = lessons.getState().lessons['01-anatomy'];
    const items = lessonItems(l);
    for (let i = 0; i < items.length; i++) {
      if (i > 0) await lessons.next();
      await lessons.idle();
      const it = items[i];
      expect(lessons.getState().item).toBe(i);
      expect(lessons.getState().error).toBeNull();
      const prep = lessons.getState().prepared['01-anatomy:base'];
      if (it.kind === 'stop') {
        expect(app.getState().frame?.seq).toBe(prep.steps[it.stop.id].at);
        expect(lessons.getState().marks.highlight).toEqual(it.stop.highlight);
        const cache = app.getState().frame!.snapshot.caches.find((c) => c.id === app.getState().selectedCache);
        expect(cache?.name).toBe(it.stop.cache ?? l.cache);
      } else if (it.kind === 'question') {
        const q = it.question;
        expect(app.getState().frame?.seq).toBe(prep.steps[q.id].from);
        const ok = q.kind === 'choice' ? await lessons.answerChoice(q.id, answerIds(q)[0]) : await lessons.answerClick(q.id, q.answer);
        expect(ok, q.id).toBe(true);
        await lessons.reveal(q.id);
        await lessons.idle();
        expect(app.getState().frame?.seq).toBe(prep.steps[q.id].at);
      } else {
        // the wrong sample first, then ops one by one (the builder's path)
        for (const line of l.sandbox.solution) await lessons.sandboxAdd(line);
        await lessons.idle();
        expect(lessons.getState().sandbox.result?.ok).toBe(true);
        expect(app.getState().frame?.opsDone).toBe(app.getState().frame?.opsTotal);
      }
    }
    const s = lessons.summary('01-anatomy')!;
    expect(s).toMatchObject({ stopsSeen: l.stops.length, answered: l.questions.length, correct: l.questions.length, goal: true, done: true });

    // a "reload": new stores over the same storage
    const again = makeStores(progress);
    await again.lessons.showList();
    await again.lessons.idle();
    expect(again.lessons.summary('01-anatomy')?.done).toBe(true);
    expect(again.lessons.summary('02-classic-paths')?.done).toBe(false);
  });

  test('a wrong answer, a share link to a stop, free play folded into the sandbox', async () => {
    const { app, lessons } = makeStores();
    await lessons.openLesson('05-sheaves', 6);
    await lessons.idle();
    const l = lessons.getState().lessons['05-sheaves'];
    const items = lessonItems(l);
    const it = items[lessons.getState().item];
    expect(it).toMatchObject({ kind: 'stop', index: 6 });
    const prep = lessons.getState().prepared['05-sheaves:base'];
    expect(app.getState().frame?.seq).toBe(prep.steps[l.stops[6].id].at);
    // the next item is q-barn-get (click a sheaf): a wrong sheaf, then the right one
    await lessons.next();
    await lessons.idle();
    expect(lessons.getState().armed).toBe('sheaf');
    expect(await lessons.answerClick('q-barn-get', 2)).toBe(false);
    expect(lessons.question('q-barn-get').result?.ok).toBe(false);
    // a wrong click does not disarm the question nor show the answer; "show the answer" does both
    expect(lessons.question('q-barn-get').shown).toBe(false);
    lessons.showAnswer('q-barn-get');
    expect(lessons.question('q-barn-get').shown).toBe(true);
    expect(lessons.getState().armed).toBeNull();
    lessons.retry('q-barn-get');
    expect(await lessons.answerClick('q-barn-get', 3)).toBe(true);
    expect(lessons.getState().progress['05-sheaves'].questions['q-barn-get']).toMatchObject({ first: '2', correct: true });
    // the sandbox: its goal picture is the stored solution's end state.
    // CPU 1's 120 frees filled its main and spare (capacity 60 each); its
    // free of o[120] puts a full sheaf in node 0's barn; CPU 3's alloc takes
    // that sheaf as its main and allocates y from it: 60 - 1 = 59
    // (lesson 05's sandbox prompt and goals)
    await lessons.goTo(items.length - 1);
    await lessons.idle();
    const goal = lessons.getState().goals['05-sheaves'];
    if (!goal || goal === 'loading') throw new Error('no goal picture');
    expect(goal.cpus.find((c) => c.cpu === 3)?.main).toBe(59);
    expect(lessons.getState().loadingRun).toBeNull();
    // the app's free play adds ops to the attempt
    app.setFreePlay({ cpu: 1, cache: 'pair-64' });
    await app.freeFree('o[120]');
    await lessons.idle();
    expect(lessons.getState().sandbox.lines).toEqual(['c1 free pair-64 o[120]']);
    await lessons.sandboxAdd('c3 alloc pair-64 y');
    await lessons.idle();
    expect(lessons.getState().sandbox.result?.ok).toBe(true);
  });
});
