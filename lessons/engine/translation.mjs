// Lesson translations (docs/lessons.md, "Translations"): lessons/<id>/
// lesson.<lang>.json holds the translated texts of lesson.json keyed by id,
// lesson.<lang>.md the translated prose, and the index entry lists the
// language with its title and summary. A translation covers exactly the
// lesson's texts and keeps every figure of the English text (numbers,
// `code`, kernel identifiers, commit ids), so a translated lesson cannot
// say other numbers than the checked English one. Pure: the lesson check
// and the web player share it.

export const TRANSLATION_FORMAT = 1;
const LANG_RE = /^[a-z]{2}$/;

function isObj(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The lesson's translatable texts, nested as a translation file holds them. */
export function translatableTexts(lesson) {
  const out = { title: lesson.title, stops: {}, questions: {}, sandbox: {} };
  for (const s of lesson.stops ?? []) out.stops[s.id] = { title: s.title, text: s.text };
  for (const q of lesson.questions ?? []) {
    const t = { prompt: q.prompt, explanation: q.explanation };
    if (q.hint !== undefined) t.hint = q.hint;
    if (q.kind === 'choice') t.choices = Object.fromEntries(q.choices.map((c) => [c.id, c.text]));
    out.questions[q.id] = t;
  }
  if (lesson.claims?.length) out.claims = Object.fromEntries(lesson.claims.map((c) => [c.id, c.text]));
  if (lesson.data?.tables?.length) out.tables = Object.fromEntries(lesson.data.tables.map((t) => [t.id, { title: t.title }]));
  if (lesson.variants?.length) out.variants = Object.fromEntries(lesson.variants.filter((v) => v.label !== undefined).map((v) => [v.id, { label: v.label }]));
  const sb = lesson.sandbox ?? {};
  out.sandbox.prompt = sb.prompt;
  if (sb.hint !== undefined) out.sandbox.hint = sb.hint;
  out.sandbox.goals = Object.fromEntries((sb.goals ?? []).map((g) => [g.id, g.text]));
  return out;
}

/** path -> text of a nested text object ("stops.start.title"). */
export function flattenTexts(obj, prefix = '', out = new Map()) {
  for (const [k, v] of Object.entries(obj ?? {})) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (isObj(v)) flattenTexts(v, p, out);
    else out.set(p, v);
  }
  return out;
}

// a number, an ordinal's number too ("the 17th" keeps 17)
const NUM_RE = /(?<![\w.])\d+(?:\.\d+)?(?=(?:st|nd|rd|th)?(?!\w))/g;
const CODE_RE = /`[^`\n]+`/g;
const IDENT_RE = /\b[A-Za-z_][A-Za-z0-9_]*_[A-Za-z0-9_]*\b|\b[a-z_][a-z0-9_]*\(\)/g;
const COMMIT_RE = /\b[0-9a-f]{12,40}\b/g;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MONTH_RE = new RegExp(`\\b(${MONTHS.join('|')})\\b`, 'g');

/** What a translation must keep of an English text (a month name is its
 * number: "13 March 2024" and "2024년 3월 13일" keep the same figures). */
export function figures(text) {
  const s = String(text ?? '').replace(MONTH_RE, (m) => String(MONTHS.indexOf(m) + 1));
  // numbers outside code spans (a code span is kept whole anyway)
  const plain = s.replace(CODE_RE, ' ');
  return {
    numbers: new Set(plain.match(NUM_RE) ?? []),
    code: new Set(s.match(CODE_RE) ?? []),
    idents: new Set(plain.match(IDENT_RE) ?? []),
    commits: new Set(s.match(COMMIT_RE) ?? []),
  };
}

/** Why `tr` does not keep the figures of `en` ([] if it does). */
export function figureProblems(en, tr) {
  const a = figures(en);
  const b = figures(tr);
  const errs = [];
  const missing = (what, x, y) => [...x].filter((v) => !y.has(v)).forEach((v) => errs.push(`${what} ${v} of the English text is missing`));
  missing('number', a.numbers, b.numbers);
  [...b.numbers].filter((v) => !a.numbers.has(v)).forEach((v) => errs.push(`number ${v} is not in the English text`));
  missing('code', a.code, b.code);
  missing('identifier', a.idents, new Set([...b.idents, ...[...b.code].join(' ').match(IDENT_RE) ?? []]));
  missing('commit', a.commits, b.commits);
  return errs;
}

/** Errors of one translation file against its lesson ([] if it is right). */
export function checkTranslation(lesson, tr, { lang, entry = null, prose = null, trProse = null } = {}) {
  const w = `lesson.${lang}.json`;
  const errs = [];
  if (!LANG_RE.test(lang)) return [`${w}: "${lang}" is not a two-letter language code`];
  if (!isObj(tr)) return [`${w}: expected an object`];
  if (tr.format !== TRANSLATION_FORMAT) errs.push(`${w}: "format" must be ${TRANSLATION_FORMAT}`);
  if (tr.lang !== lang) errs.push(`${w}: "lang" must be "${lang}"`);
  if (tr.id !== lesson.id) errs.push(`${w}: "id" must be "${lesson.id}"`);
  if (tr.prose !== `lesson.${lang}.md`) errs.push(`${w}: "prose" must be "lesson.${lang}.md"`);
  const en = flattenTexts(translatableTexts(lesson));
  const { format: _f, lang: _l, id: _i, prose: _p, ...texts } = tr;
  const got = flattenTexts(texts);
  for (const k of en.keys()) if (!got.has(k)) errs.push(`${w}: no translation of ${k}`);
  for (const k of got.keys()) if (!en.has(k)) errs.push(`${w}: ${k} is not a text of the lesson`);
  for (const [k, v] of got) {
    if (!en.has(k)) continue;
    if (typeof v !== 'string' || !v.trim()) {
      errs.push(`${w}: ${k} must be a non-empty string`);
      continue;
    }
    for (const e of figureProblems(en.get(k), v)) errs.push(`${w}: ${k}: ${e}`);
  }
  if (entry) {
    const ie = entry.translations?.[lang];
    if (!isObj(ie)) errs.push(`index.json (${lesson.id}): "translations" must name ${lang} with its title and summary`);
    else {
      if (ie.title !== tr.title) errs.push(`index.json (${lesson.id}): the ${lang} title must be the one of ${w}`);
      if (typeof ie.summary !== 'string' || !ie.summary.trim()) errs.push(`index.json (${lesson.id}): the ${lang} summary must be a non-empty string`);
      else for (const e of figureProblems(entry.summary, ie.summary)) errs.push(`index.json (${lesson.id}): the ${lang} summary: ${e}`);
    }
  }
  if (prose !== null) {
    if (typeof trProse !== 'string' || !trProse.trim()) errs.push(`lesson.${lang}.md: missing or empty`);
    else for (const e of figureProblems(prose, trProse)) errs.push(`lesson.${lang}.md: ${e}`);
  }
  return errs;
}

/** The lesson with its texts in the translation's words (English where the
 * translation has none); ids, positions and checks are the lesson's. */
export function localizeLesson(lesson, tr) {
  if (!tr) return lesson;
  const q = tr.questions ?? {};
  return {
    ...lesson,
    title: tr.title ?? lesson.title,
    stops: lesson.stops.map((s) => ({ ...s, ...pick(tr.stops?.[s.id], ['title', 'text']) })),
    questions: lesson.questions.map((x) => ({
      ...x,
      ...pick(q[x.id], ['prompt', 'hint', 'explanation']),
      ...(x.kind === 'choice' ? { choices: x.choices.map((c) => ({ ...c, text: q[x.id]?.choices?.[c.id] ?? c.text })) } : {}),
    })),
    ...(lesson.claims ? { claims: lesson.claims.map((c) => ({ ...c, text: tr.claims?.[c.id] ?? c.text })) } : {}),
    ...(lesson.data ? { data: { ...lesson.data, tables: lesson.data.tables.map((t) => ({ ...t, ...pick(tr.tables?.[t.id], ['title']) })) } } : {}),
    ...(lesson.variants ? { variants: lesson.variants.map((v) => ({ ...v, ...pick(tr.variants?.[v.id], ['label']) })) } : {}),
    sandbox: {
      ...lesson.sandbox,
      ...pick(tr.sandbox, ['prompt', 'hint']),
      goals: lesson.sandbox.goals.map((g) => ({ ...g, text: tr.sandbox?.goals?.[g.id] ?? g.text })),
    },
  };
}

function pick(o, keys) {
  const out = {};
  if (isObj(o)) for (const k of keys) if (typeof o[k] === 'string') out[k] = o[k];
  return out;
}
