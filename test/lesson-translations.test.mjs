// Lesson translations (docs/lessons.md, "Translations"): every lesson.<lang>
// .json covers exactly its lesson's texts, keeps their figures, and is named
// by the index with its title and summary; and the check fails on a
// translation that drifts.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './helpers.mjs';
import { checkTranslations } from '../lessons/engine/check.mjs';
import { figureProblems, flattenTexts, localizeLesson, translatableTexts } from '../lessons/engine/translation.mjs';

const LESSONS = join(ROOT, 'lessons');
const index = JSON.parse(readFileSync(join(LESSONS, 'index.json'), 'utf8'));
const read = (id, f) => readFileSync(join(LESSONS, id, f), 'utf8');

function load(entry) {
  const dir = join(LESSONS, entry.id);
  const translations = {};
  for (const f of readdirSync(dir)) {
    const m = /^lesson\.([a-z]{2})\.json$/.exec(f);
    if (!m) continue;
    const md = join(dir, `lesson.${m[1]}.md`);
    translations[m[1]] = { json: JSON.parse(read(entry.id, f)), prose: existsSync(md) ? readFileSync(md, 'utf8') : null };
  }
  return { entry, lesson: JSON.parse(read(entry.id, 'lesson.json')), prose: read(entry.id, 'lesson.md'), translations };
}
const all = index.lessons.map(load);
const clone = (x) => JSON.parse(JSON.stringify(x));
const failures = (L) => checkTranslations(L.lesson, L).filter((it) => !it.ok).map((it) => it.message).join('\n');

describe('lesson translations', () => {
  test('lessons 01 and 05 are in Korean', () => {
    for (const id of ['01-anatomy', '05-sheaves']) expect(Object.keys(all.find((L) => L.entry.id === id).translations)).toEqual(['ko']);
  });

  test.each(all.map((L) => [L.entry.id, L]))('%s: every translation covers the lesson and keeps its figures', (_, L) => {
    expect(failures(L)).toBe('');
  });

  const ko = () => clone(all.find((L) => L.entry.id === '01-anatomy'));

  test('a changed number, a dropped code span or identifier fails', () => {
    const L = ko();
    L.translations.ko.json.stops['new-slab'].text = L.translations.ko.json.stops['new-slab'].text.replace('1024', '2048');
    L.translations.ko.json.questions['q-num-objs'].explanation = L.translations.ko.json.questions['q-num-objs'].explanation.replace('`num_objs`', 'num_objs');
    L.translations.ko.json.claims['pi-kvm'] = L.translations.ko.json.claims['pi-kvm'].replace('kvm_vcpu', 'KVM');
    const msg = failures(L);
    expect(msg).toMatch(/stops\.new-slab\.text: number 1024 of the English text is missing/);
    expect(msg).toMatch(/stops\.new-slab\.text: number 2048 is not in the English text/);
    expect(msg).toMatch(/questions\.q-num-objs\.explanation: code `num_objs` of the English text is missing/);
    expect(msg).toMatch(/claims\.pi-kvm: identifier kvm_vcpu of the English text is missing/);
  });

  test('a missing text, an unknown id and an empty text fail', () => {
    const L = ko();
    delete L.translations.ko.json.stops.kvm;
    L.translations.ko.json.questions['q-active-first'].choices.four = '4';
    L.translations.ko.json.sandbox.hint = ' ';
    const msg = failures(L);
    expect(msg).toMatch(/no translation of stops\.kvm\.title/);
    expect(msg).toMatch(/questions\.q-active-first\.choices\.four is not a text of the lesson/);
    expect(msg).toMatch(/sandbox\.hint must be a non-empty string/);
  });

  test('a new English text needs its translation', () => {
    const L = ko();
    L.lesson.stops.push({ ...L.lesson.stops[0], id: 'extra', title: 'Extra', text: 'More.' });
    expect(failures(L)).toMatch(/no translation of stops\.extra\.text/);
  });

  test('the prose and the index entry are checked too', () => {
    const L = ko();
    L.translations.ko.prose = L.translations.ko.prose.replaceAll('1344', '1345');
    L.entry.translations.ko.title = 'another title';
    const msg = failures(L);
    expect(msg).toMatch(/lesson\.ko\.md: number 1344 of the English text is missing/);
    expect(msg).toMatch(/the ko title must be the one of lesson\.ko\.json/);
    const L2 = ko();
    delete L2.entry.translations;
    expect(failures(L2)).toMatch(/lesson\.ko\.json exists but index\.json does not name ko/);
    const L3 = ko();
    L3.translations = {};
    expect(failures(L3)).toMatch(/index\.json names ko but lesson\.ko\.json is missing/);
  });

  test('figures: dates, ordinals and month names count as numbers', () => {
    expect(figureProblems('the post (13 March 2024)', '글 (2024년 3월 13일)')).toEqual([]);
    expect(figureProblems('the 17th allocation', '17번째 할당')).toEqual([]);
    expect(figureProblems('the 17th allocation', '18번째 할당')).toHaveLength(2);
  });

  test('localizeLesson swaps the texts and keeps ids, positions and checks', () => {
    const L = ko();
    const loc = localizeLesson(L.lesson, L.translations.ko.json);
    expect(loc.title).toBe(L.translations.ko.json.title);
    expect(loc.stops.map((s) => [s.id, s.at])).toEqual(L.lesson.stops.map((s) => [s.id, s.at]));
    expect(loc.questions[0].choices.map((c) => c.check)).toEqual(L.lesson.questions[0].choices.map((c) => c.check));
    expect(loc.questions[0].choices[2].text).toBe(L.translations.ko.json.questions['q-active-first'].choices.zero);
    expect(loc.sandbox.solution).toEqual(L.lesson.sandbox.solution);
    // every text of the localized lesson is the translation's
    const want = flattenTexts((({ format, lang, id, prose, ...t }) => t)(L.translations.ko.json));
    expect(flattenTexts(translatableTexts(loc))).toEqual(want);
    expect(localizeLesson(L.lesson, null)).toBe(L.lesson);
  });
});
