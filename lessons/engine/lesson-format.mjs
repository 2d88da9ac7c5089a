// slubviz lesson format 1 (docs/lessons.md): shape validation and small
// helpers shared by the lesson check (test/lessons.test.mjs) and the web
// lesson player. Pure ES module, no I/O. The core's names (ops, presets,
// setting keys, counters, the event ring) come from its manifest
// (vocabulary.mjs); the lists here are the format's own and the web app's.

import { CPU_LIST_KINDS, NODE_LIST_KINDS, isCounter, validatePredicate } from './predicates.mjs';
import { vocabulary } from './vocabulary.mjs';

export { CPU_LIST_KINDS, NODE_LIST_KINDS };

export const LESSON_FORMAT = 1;

/** Views a stop may focus: the web app's panels and text tabs. */
export const VIEWS = ['topology', 'sheaves', 'barns', 'partial', 'slab', 'callpath', 'counters',
  'events', 'slabinfo', 'sysfs', 'stats', 'config', 'data'];
/** Element kinds a click question may ask for. */
export const TARGETS = ['slab', 'object', 'sheaf', 'cpu', 'node', 'list'];
/** Highlight kinds of a stop. */
export const HIGHLIGHTS = ['slab', 'obj', 'sheaf', 'cpu', 'node', 'list', 'stat', 'sysfs', 'slabinfo', 'table'];

const ID_RE = /^[a-z0-9][a-z0-9-]*$/;
const SEED_RE = /^\d{3}_[0-9a-f]{16}\.txt$/;
const COMMIT_RE = /^[0-9a-f]{12,40}$/;

function isObj(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** "k=v" lines for svz_open's `sets` from an object (insertion order) or an array. */
export function setsText(sets) {
  if (!sets) return '';
  if (Array.isArray(sets)) return sets.join('\n');
  return Object.entries(sets).map(([k, v]) => `${k}=${v}`).join('\n');
}

/** The effective { scenario, preset, sets } of the lesson's run or of one variant. */
export function runConfig(lesson, variantId) {
  const base = {
    scenario: lesson.scenario, preset: lesson.preset ?? '', sets: { ...(lesson.sets || {}) },
    expectReport: lesson.expect_report === true,
  };
  if (!variantId || variantId === 'base') return base;
  const v = (lesson.variants || []).find((x) => x.id === variantId);
  if (!v) throw new Error(`lesson ${lesson.id}: no variant ${variantId}`);
  return {
    scenario: v.scenario ?? base.scenario,
    preset: v.preset ?? base.preset,
    sets: { ...base.sets, ...(v.sets || {}) },
    // not inherited: a variant is usually the kernel where the report does not happen
    expectReport: v.expect_report === true,
  };
}

/** A position in words, for messages. */
export function describePosition(pos) {
  if (!isObj(pos)) return JSON.stringify(pos);
  if ('end' in pos) return 'the end of the run';
  if ('seq' in pos) return `micro-step #${pos.seq}`;
  if ('event' in pos) return `the ${ordinal((pos.nth ?? 0) + 1)} event of op ${pos.op} matching ${JSON.stringify(pos.event)}`;
  if (pos.op === -1) return 'the start (no op run)';
  return `the end of op ${pos.op}`;
}

function ordinal(n) {
  return n === 1 ? 'first' : n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`;
}

/** The player's order of a lesson: the stops in order, each question right
 * before the stop it names in `before` (predict, then the stop explains) or
 * right after the one it names in `after`, questions with neither after the
 * last stop. [{kind: 'stop', stop, index} | {kind: 'question', question}] */
export function lessonSequence(lesson) {
  const out = [];
  const placed = new Set();
  const ask = (key, stop) => {
    for (const q of lesson.questions) {
      if (q[key] === stop.id) {
        out.push({ kind: 'question', question: q });
        placed.add(q.id);
      }
    }
  };
  lesson.stops.forEach((stop, index) => {
    ask('before', stop);
    out.push({ kind: 'stop', stop, index });
    ask('after', stop);
  });
  for (const q of lesson.questions) if (!placed.has(q.id)) out.push({ kind: 'question', question: q });
  return out;
}

// ---- the no-spoiler rule -----------------------------------------------------------

const CODE_RE = /\b[A-Za-z_][A-Za-z0-9_]*_[A-Za-z0-9_]*\b/g; // identifiers with an underscore
const NUM_RE = /\b\d+\b/g;

function terms(text) {
  const s = String(text);
  return new Set([...(s.match(CODE_RE) || []), ...(s.match(NUM_RE) || [])]);
}

/** What would give a question's answer away if a text said it: for a choice
 * question the counter/function names and numbers of the right choice(s)
 * that no wrong choice and not the prompt contain; for a click question the
 * element it asks for ("sheaf 3", "list partial:0"). Strings, matched as
 * whole words. */
export function answerTerms(q) {
  if (q.kind === 'click') {
    const word = { object: '(?:object|obj)', cpu: 'CPU', list: 'list' }[q.target] ?? q.target;
    return [{ term: `${q.target} ${q.answer}`, re: new RegExp(`\\b${word}\\s+#?${String(q.answer).replace(/[^a-z0-9_]/gi, '\\$&')}\\b`, 'i') }];
  }
  if (q.kind !== 'choice' || !Array.isArray(q.choices)) return [];
  const right = new Set(Array.isArray(q.answer) ? q.answer : [q.answer]);
  const taken = terms(q.prompt);
  for (const c of q.choices) if (!right.has(c.id)) for (const t of terms(c.text)) taken.add(t);
  const out = [];
  for (const c of q.choices) {
    if (!right.has(c.id)) continue;
    for (const t of terms(c.text)) {
      if (taken.has(t)) continue;
      if (!/^\d+$/.test(t)) {
        out.push({ term: t, re: new RegExp(`(?<![A-Za-z0-9_])${t}(?![A-Za-z0-9_])`) });
        continue;
      }
      // a number counts with its unit: "order 3 (8 pages)" is given away by
      // "order 3" or "8 pages", not by "8 objects"; a bare number by itself,
      // unless it names an element (CPU 2, node 0, kmalloc-512, v6.19)
      const m = new RegExp(`(?:([A-Za-z]+)\\s+)?\\b${t}\\b(?:\\s+([A-Za-z]+))?`).exec(String(c.text));
      const [before, after] = [m?.[1], m?.[2]];
      const re = before || after
        ? new RegExp(`${before ? `\\b${before}\\s+${t}\\b` : '(?!)'}|${after ? `(?<![\\w.-])${t}\\s+${after}\\b` : '(?!)'}`, 'i')
        : new RegExp(`(?<!(?:CPU|CPUs|node|op|slab|sheaf|object|round|order) ?)(?<![\\w.-])${t}(?![\\w]|\\.\\d)`, 'i');
      out.push({ term: before ? `${before} ${t}` : after ? `${t} ${after}` : t, re });
    }
  }
  return out;
}

/** Each question with the stop the student saw last before it (null if none). */
export function questionsAfterStops(lesson) {
  const out = [];
  let stop = null;
  for (const it of lessonSequence(lesson)) {
    if (it.kind === 'stop') stop = it.stop;
    else out.push({ question: it.question, stop });
  }
  return out;
}

/** The no-spoiler rule on text: the stop a question follows in the player
 * (lessonSequence) and the question's hint must not state its answer
 * (answerTerms). [{question, where, term}] */
export function textSpoilers(lesson) {
  const out = [];
  for (const { question: q, stop: last } of questionsAfterStops(lesson)) {
    const texts = [];
    if (last) texts.push([`stop ${last.id}`, last.text]);
    if (typeof q.hint === 'string') texts.push(['its hint', q.hint]);
    for (const { term, re } of answerTerms(q)) {
      for (const [where, text] of texts) if (re.test(String(text).replace(/`/g, ''))) out.push({ question: q.id, where, term });
    }
  }
  return out;
}

// a schedule step of a `steps` line (docs/trace-format.md 3.1): c1, c1x5, c1/, c1/3, c1:cmpxchg
const STEP_RE = /^c?(\d+)(x\d+|\/\d*|:[a-z_]+)?$/;

/** Is the line a `steps` line (CPU steps of an explicit schedule)? */
export function isStepsLine(line) {
  return /^steps(\s|$)/.test(line.trim());
}

/** The trace a sandbox attempt runs: the starting trace plus the student's
 * ops at its end; the student's `steps` lines go right after the starting
 * trace's `schedule` directive (directives precede the first op). */
export function sandboxTrace(baseText, lines) {
  const base = baseText.endsWith('\n') ? baseText : baseText + '\n';
  const clean = lines.map((l) => l.trim()).filter(Boolean);
  const steps = clean.filter(isStepsLine);
  const ops = clean.filter((l) => !isStepsLine(l));
  let text = base;
  if (steps.length) {
    const m = /^schedule[ \t][^\n]*\n/m.exec(base);
    if (!m) throw new Error('the starting trace has no "schedule" line to put steps after');
    const at = m.index + m[0].length;
    text = base.slice(0, at) + steps.join('\n') + '\n' + base.slice(at);
  }
  return text + (ops.length ? ops.join('\n') + '\n' : '');
}

/** The op lines of a sandbox attempt (blank lines and # comments dropped). */
export function sandboxLines(text) {
  const src = Array.isArray(text) ? text : String(text).split('\n');
  return src.map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
}

/** Problems with a sandbox attempt before it runs: the limits, one op per
 * line (no directives, no repeat; `steps` lines where allow.steps), allowed
 * ops, CPUs and caches. [] if fine. */
export function checkSandboxLines(sandbox, lines) {
  const errs = [];
  const allow = sandbox.allow || {};
  const opLines = lines.filter((l) => !(allow.steps && isStepsLine(l)));
  const limit = sandbox.limit?.ops;
  if (limit !== undefined && opLines.length > limit) errs.push(`${opLines.length} ops, the limit is ${limit}`);
  const { ops } = vocabulary();
  let nsteps = 0;
  lines.forEach((line, i) => {
    const t = line.split(/\s+/);
    if (allow.steps && t[0] === 'steps') {
      if (t.length < 2) errs.push(`line ${i + 1}: expected CPU steps like "steps c0/3 c1:cmpxchg", got "${line}"`);
      for (const tok of t.slice(1)) {
        nsteps++;
        const m = STEP_RE.exec(tok);
        if (!m) errs.push(`line ${i + 1}: expected a step like c0 (one micro-step), c0x5, c0/ (to the op's return), c0/3 or c0:cmpxchg (to an event of that kind), got "${tok}"`);
        else if (allow.cpus && !allow.cpus.includes(Number(m[1]))) errs.push(`line ${i + 1}: CPU ${m[1]} is not allowed here (${allow.cpus.join(', ')})`);
        else if (m[2]?.startsWith(':') && !vocabulary().eventKinds.includes(m[2].slice(1))) errs.push(`line ${i + 1}: step ${tok}: unknown event kind "${m[2].slice(1)}"`);
      }
      return;
    }
    const m = /^c(\d+)$/.exec(t[0] || '');
    if (!m || !ops.includes(t[1])) {
      errs.push(`line ${i + 1}: expected ${allow.steps ? 'CPU steps like "steps c0/3 c1:cmpxchg" or ' : ''}one op like "c0 alloc CACHE HANDLE", got "${line}"`);
      return;
    }
    if (/[{}$]/.test(line)) errs.push(`line ${i + 1}: templates and repeat blocks are not allowed here`);
    if (allow.ops && !allow.ops.includes(t[1])) errs.push(`line ${i + 1}: op ${t[1]} is not allowed here (${allow.ops.join(', ')})`);
    if (allow.cpus && !allow.cpus.includes(Number(m[1]))) errs.push(`line ${i + 1}: CPU ${m[1]} is not allowed here (${allow.cpus.join(', ')})`);
    if (allow.caches && !['kmalloc', 'kfree'].includes(t[1]) && t[2] && !allow.caches.includes(t[2])) {
      errs.push(`line ${i + 1}: cache ${t[2]} is not allowed here (${allow.caches.join(', ')})`);
    }
  });
  const stepLimit = sandbox.limit?.steps;
  if (stepLimit !== undefined && nsteps > stepLimit) errs.push(`${nsteps} steps, the limit is ${stepLimit}`);
  return errs;
}

// ---- shape validation -----------------------------------------------------------

/** Errors of lessons/index.json (strings; [] if valid). */
export function validateIndex(index) {
  const errs = [];
  if (!isObj(index)) return ['index.json: expected an object'];
  if (index.format !== LESSON_FORMAT) errs.push(`index.json: "format" must be ${LESSON_FORMAT}, got ${JSON.stringify(index.format)}`);
  if (!Array.isArray(index.lessons) || !index.lessons.length) {
    errs.push('index.json: "lessons" must be a non-empty array');
    return errs;
  }
  const seen = new Set();
  index.lessons.forEach((l, i) => {
    const w = `index.json lessons[${i}]`;
    if (!isObj(l)) return errs.push(`${w}: expected an object`);
    if (typeof l.id !== 'string' || !ID_RE.test(l.id)) errs.push(`${w}: "id" must match ${ID_RE} (got ${JSON.stringify(l.id)})`);
    if (seen.has(l.id)) errs.push(`${w}: duplicate id ${l.id}`);
    for (const k of ['title', 'summary']) if (typeof l[k] !== 'string' || !l[k].trim()) errs.push(`${w} (${l.id}): "${k}" must be a non-empty string`);
    if (!Array.isArray(l.prerequisites)) errs.push(`${w} (${l.id}): "prerequisites" must be an array of lesson ids`);
    else for (const p of l.prerequisites) if (!seen.has(p)) errs.push(`${w} (${l.id}): prerequisite ${p} must be a lesson listed before it`);
    if (!Array.isArray(l.seeds) || !l.seeds.length) errs.push(`${w} (${l.id}): "seeds" must list the seed files it cites`);
    else for (const s of l.seeds) if (!SEED_RE.test(s)) errs.push(`${w} (${l.id}): seed ${JSON.stringify(s)} is not a seed file name`);
    checkPreset(l.preset, `${w} (${l.id})`, errs);
    if (l.minutes !== undefined && !(Number.isInteger(l.minutes) && l.minutes > 0)) errs.push(`${w} (${l.id}): "minutes" must be a positive integer`);
    seen.add(l.id);
  });
  return errs;
}

function checkPos(pos, w, errs, { allowEnd = true } = {}) {
  if (!isObj(pos)) return errs.push(`${w}: expected a position object like {"op": 3} or {"seq": 42}`);
  const keys = Object.keys(pos);
  if ('end' in pos) {
    if (!allowEnd) errs.push(`${w}: {"end": true} is not allowed here`);
    if (pos.end !== true || keys.length !== 1) errs.push(`${w}: {"end": true} takes no other keys`);
    return;
  }
  if ('seq' in pos) {
    if (!Number.isInteger(pos.seq) || pos.seq < 0) errs.push(`${w}: "seq" must be an integer >= 0`);
    if (keys.length !== 1) errs.push(`${w}: {"seq": S} takes no other keys`);
    return;
  }
  if (!Number.isInteger(pos.op) || pos.op < -1) return errs.push(`${w}: "op" must be an integer >= -1 (got ${JSON.stringify(pos.op)})`);
  if ('event' in pos) {
    if (pos.op < 0) errs.push(`${w}: {"op", "event"} needs an op >= 0`);
    if (!isObj(pos.event)) errs.push(`${w}: "event" must be an object of event fields`);
    else errs.push(...validatePredicate({ event: pos.event }, `${w}.event`));
    if (pos.nth !== undefined && (!Number.isInteger(pos.nth) || pos.nth < 0)) errs.push(`${w}: "nth" must be an integer >= 0`);
  }
  for (const k of keys) if (!['op', 'event', 'nth'].includes(k)) errs.push(`${w}: unknown key "${k}"`);
}

function checkScenario(sc, w, errs) {
  if (!isObj(sc)) return errs.push(`${w}: expected {"file": "scenarios/X.trace"} or {"inline": "slubviz-trace 1\\n..."}`);
  const n = ('file' in sc) + ('inline' in sc);
  if (n !== 1) return errs.push(`${w}: give exactly one of "file" and "inline"`);
  if ('file' in sc && (typeof sc.file !== 'string' || !/^scenarios\/[A-Za-z0-9_.-]+\.trace$/.test(sc.file))) errs.push(`${w}: "file" must be scenarios/NAME.trace`);
  if ('inline' in sc && (typeof sc.inline !== 'string' || !sc.inline.includes('slubviz-trace 1'))) errs.push(`${w}: "inline" must be a v1 trace text`);
}

function checkPreset(preset, w, errs) {
  if (preset === undefined) return;
  if (typeof preset !== 'string') return errs.push(`${w}: "preset" must be a preset name`);
  const { presets } = vocabulary();
  if (!presets.includes(preset)) errs.push(`${w}: unknown preset ${JSON.stringify(preset)} (${presets.join(', ')})`);
}

function checkSets(sets, w, errs) {
  if (sets === undefined) return;
  if (!isObj(sets)) return errs.push(`${w}: "sets" must be an object of key: value`);
  const { settings } = vocabulary();
  for (const [k, v] of Object.entries(sets)) {
    // the schedule and the timed costs are settings of svz_open() but not
    // kernel switches, so the manifest does not list them (config.c)
    const schedKey = k === 'schedule' || k.startsWith('cost.');
    if (!settings.includes(k) && !schedKey) errs.push(`${w}: unknown setting key ${JSON.stringify(k)} (${settings.join(', ')})`);
    if (!['string', 'number', 'boolean'].includes(typeof v)) errs.push(`${w}: setting ${k} must be a string, number or boolean`);
  }
}

function checkText(v, w, errs, key = 'text') {
  if (typeof v !== 'string' || !v.trim()) errs.push(`${w}: "${key}" must be non-empty Markdown text`);
}

function checkPred(p, w, errs) {
  if (p === undefined) return errs.push(`${w}: missing predicate`);
  errs.push(...validatePredicate(p, w));
}

/** Errors of one lesson.json (strings; [] if valid). `entry` is its
 * index.json entry, used to cross-check id and seeds. */
export function validateLesson(lesson, entry = null) {
  const errs = [];
  if (!isObj(lesson)) return ['lesson.json: expected an object'];
  const L = `lesson ${lesson.id ?? '?'}`;
  if (lesson.format !== LESSON_FORMAT) errs.push(`${L}: "format" must be ${LESSON_FORMAT}`);
  if (typeof lesson.id !== 'string' || !ID_RE.test(lesson.id)) errs.push(`${L}: "id" must match ${ID_RE}`);
  if (entry && entry.id !== lesson.id) errs.push(`${L}: id differs from index.json (${entry.id})`);
  checkText(lesson.title, L, errs, 'title');
  if (lesson.prose !== 'lesson.md') errs.push(`${L}: "prose" must be "lesson.md"`);

  if (!Array.isArray(lesson.seeds) || !lesson.seeds.length) errs.push(`${L}: "seeds" must list the seed files the lesson cites`);
  else lesson.seeds.forEach((s, i) => {
    if (!isObj(s) || !SEED_RE.test(s.file ?? '')) errs.push(`${L} seeds[${i}]: expected {"file": "NNN_<hex16>.txt", "what": ...}`);
    else if (entry && !entry.seeds.includes(s.file)) errs.push(`${L} seeds[${i}]: ${s.file} is not in index.json's seeds of this lesson`);
    if (isObj(s)) checkText(s.what, `${L} seeds[${i}]`, errs, 'what');
  });
  if (!Array.isArray(lesson.commits)) errs.push(`${L}: "commits" must be an array (may be empty)`);
  else lesson.commits.forEach((c, i) => {
    if (!isObj(c) || !COMMIT_RE.test(c.id ?? '')) errs.push(`${L} commits[${i}]: expected {"id": "<12+ hex>", "title": ...}`);
    if (isObj(c)) {
      checkText(c.title, `${L} commits[${i}]`, errs, 'title');
      if (typeof c.in_seed !== 'boolean') errs.push(`${L} commits[${i}]: "in_seed" must say whether a seed names this commit`);
    }
  });

  checkScenario(lesson.scenario, `${L} scenario`, errs);
  checkPreset(lesson.preset, L, errs);
  checkSets(lesson.sets, `${L}`, errs);
  if (lesson.expect_report !== undefined && typeof lesson.expect_report !== 'boolean') errs.push(`${L}: "expect_report" must be true or false`);
  if (typeof lesson.cache !== 'string') errs.push(`${L}: "cache" (the cache the views show first) must be a cache name`);

  const variants = new Set(['base']);
  if (lesson.variants !== undefined) {
    if (!Array.isArray(lesson.variants)) errs.push(`${L}: "variants" must be an array`);
    else lesson.variants.forEach((v, i) => {
      const w = `${L} variants[${i}]`;
      if (!isObj(v) || typeof v.id !== 'string' || !ID_RE.test(v.id)) return errs.push(`${w}: "id" must match ${ID_RE}`);
      if (variants.has(v.id)) errs.push(`${w}: duplicate variant id ${v.id}`);
      variants.add(v.id);
      checkText(v.label, w, errs, 'label');
      if (v.scenario !== undefined) checkScenario(v.scenario, `${w}.scenario`, errs);
      checkPreset(v.preset, w, errs);
      checkSets(v.sets, w, errs);
      if (v.expect_report !== undefined && typeof v.expect_report !== 'boolean') errs.push(`${w}: "expect_report" must be true or false`);
    });
  }
  const checkVariant = (v, w) => {
    if (v !== undefined && !variants.has(v)) errs.push(`${w}: unknown variant ${JSON.stringify(v)}`);
  };

  const ids = new Set();
  const uniq = (id, w) => {
    if (typeof id !== 'string' || !ID_RE.test(id)) errs.push(`${w}: "id" must match ${ID_RE}`);
    else if (ids.has(id)) errs.push(`${w}: duplicate id ${id}`);
    ids.add(id);
  };

  if (!Array.isArray(lesson.stops) || !lesson.stops.length) errs.push(`${L}: "stops" must be a non-empty array`);
  else lesson.stops.forEach((s, i) => {
    const w = `${L} stops[${i}]${s && s.id ? ` (${s.id})` : ''}`;
    if (!isObj(s)) return errs.push(`${w}: expected an object`);
    uniq(s.id, w);
    checkText(s.title, w, errs, 'title');
    checkPos(s.at, `${w}.at`, errs);
    checkVariant(s.variant, w);
    if (!Array.isArray(s.focus) || !s.focus.length) errs.push(`${w}: "focus" must list views (${VIEWS.join(', ')})`);
    else for (const f of s.focus) if (!VIEWS.includes(f)) errs.push(`${w}: unknown view ${JSON.stringify(f)} (${VIEWS.join(', ')})`);
    if (s.cpu !== undefined && !Number.isInteger(s.cpu)) errs.push(`${w}: "cpu" must be a CPU number`);
    if (s.cache !== undefined && typeof s.cache !== 'string') errs.push(`${w}: "cache" must be a cache name`);
    if (!Array.isArray(s.highlight)) errs.push(`${w}: "highlight" must be an array (may be empty)`);
    else s.highlight.forEach((h, j) => {
      const keys = isObj(h) ? Object.keys(h).filter((k) => HIGHLIGHTS.includes(k)) : [];
      if (keys.length !== 1) errs.push(`${w}.highlight[${j}]: expected one of ${HIGHLIGHTS.map((k) => `{"${k}": ...}`).join(', ')}`);
      else if (keys[0] === 'list' && !isListId(h.list)) errs.push(`${w}.highlight[${j}]: bad list id ${JSON.stringify(h.list)} (KIND:N)`);
      else if (keys[0] === 'stat' && !isCounter(h.stat)) errs.push(`${w}.highlight[${j}]: unknown counter ${JSON.stringify(h.stat)}`);
    });
    checkText(s.text, w, errs);
  });

  if (!Array.isArray(lesson.questions) || !lesson.questions.length) errs.push(`${L}: "questions" must be a non-empty array`);
  else lesson.questions.forEach((q, i) => {
    const w = `${L} questions[${i}]${q && q.id ? ` (${q.id})` : ''}`;
    if (!isObj(q)) return errs.push(`${w}: expected an object`);
    uniq(q.id, w);
    checkPos(q.at, `${w}.at`, errs);
    checkPos(q.reveal, `${w}.reveal`, errs);
    checkVariant(q.variant, w);
    for (const k of ['after', 'before']) if (q[k] !== undefined && !(lesson.stops || []).some((s) => s.id === q[k])) errs.push(`${w}: "${k}" names no stop`);
    if (q.after !== undefined && q.before !== undefined) errs.push(`${w}: give "after" or "before", not both`);
    checkText(q.prompt, w, errs, 'prompt');
    checkText(q.explanation, w, errs, 'explanation');
    checkText(q.hint, w, errs, 'hint');
    if (q.kind === 'choice') {
      if (!Array.isArray(q.choices) || q.choices.length < 2) errs.push(`${w}: a choice question needs at least two "choices"`);
      else {
        const cids = new Set();
        q.choices.forEach((c, j) => {
          const cw = `${w}.choices[${j}]`;
          if (!isObj(c) || typeof c.id !== 'string' || !c.id) return errs.push(`${cw}: expected {"id", "text", "check"}`);
          if (cids.has(c.id)) errs.push(`${cw}: duplicate choice id ${c.id}`);
          cids.add(c.id);
          checkText(c.text, cw, errs);
          checkPred(c.check, `${cw}.check`, errs);
        });
        const ans = Array.isArray(q.answer) ? q.answer : [q.answer];
        if (!ans.length || ans.some((a) => !cids.has(a))) errs.push(`${w}: "answer" must name choice id(s) (${[...cids].join(', ')})`);
        if (ans.length >= q.choices.length) errs.push(`${w}: at least one choice must be wrong`);
      }
    } else if (q.kind === 'click') {
      if (!TARGETS.includes(q.target)) errs.push(`${w}: "target" must be one of ${TARGETS.join(', ')}`);
      if (['slab', 'object', 'sheaf', 'list'].includes(q.target) && typeof q.cache !== 'string') errs.push(`${w}: a ${q.target} question needs "cache"`);
      checkPred(q.check, `${w}.check`, errs);
      if (q.target === 'list' ? !isListId(q.answer) : !Number.isInteger(q.answer)) errs.push(`${w}: "answer" must be the ${q.target === 'list' ? 'list id (KIND:N)' : `${q.target} id`} the check accepts`);
      if (q.unique !== undefined && typeof q.unique !== 'boolean') errs.push(`${w}: "unique" must be a boolean`);
    } else {
      errs.push(`${w}: "kind" must be "choice" or "click"`);
    }
  });

  if (lesson.claims !== undefined) {
    if (!Array.isArray(lesson.claims)) errs.push(`${L}: "claims" must be an array`);
    else lesson.claims.forEach((c, i) => {
      const w = `${L} claims[${i}]${c && c.id ? ` (${c.id})` : ''}`;
      if (!isObj(c)) return errs.push(`${w}: expected an object`);
      uniq(c.id, w);
      checkText(c.text, w, errs);
      if ('compare' in c) {
        const cmp = c.compare;
        if (!isObj(cmp) || !isObj(cmp.left) || !isObj(cmp.right) || typeof cmp.op !== 'string') {
          errs.push(`${w}: "compare" needs {"left": {variant, value}, "op", "right": {variant, value}}`);
        } else {
          for (const side of ['left', 'right']) {
            checkVariant(cmp[side].variant, `${w}.compare.${side}`);
            if (cmp[side].at !== undefined) checkPos(cmp[side].at, `${w}.compare.${side}.at`, errs);
            errs.push(...validatePredicate({ ...cmp[side].value, op: '==', value: 0 }, `${w}.compare.${side}.value`));
          }
          if (!['==', '!=', '<', '<=', '>', '>='].includes(cmp.op)) errs.push(`${w}: compare "op" must be a comparison`);
          if (cmp.factor !== undefined && typeof cmp.factor !== 'number') errs.push(`${w}: "factor" must be a number`);
        }
      } else {
        checkVariant(c.variant, w);
        if (c.at !== undefined) checkPos(c.at, `${w}.at`, errs);
        if (c.from !== undefined) checkPos(c.from, `${w}.from`, errs);
        checkPred(c.check, `${w}.check`, errs);
      }
    });
  }

  if (lesson.data !== undefined) {
    if (!isObj(lesson.data) || !Array.isArray(lesson.data.tables)) errs.push(`${L}: "data" must be {"tables": [...]}`);
    else lesson.data.tables.forEach((t, i) => {
      const w = `${L} data.tables[${i}]${t && t.id ? ` (${t.id})` : ''}`;
      if (!isObj(t)) return errs.push(`${w}: expected an object`);
      uniq(t.id, w);
      checkText(t.title, w, errs, 'title');
      if (t.source !== 'model' && !SEED_RE.test(t.source ?? '')) errs.push(`${w}: "source" must be the seed file the figures come from, or "model"`);
      if (t.source === 'model' && t.evidence !== undefined) errs.push(`${w}: a "model" table has no seed evidence`);
      if (!Array.isArray(t.columns) || !t.columns.length) errs.push(`${w}: "columns" must be a non-empty array`);
      if (!Array.isArray(t.rows) || !t.rows.length) errs.push(`${w}: "rows" must be a non-empty array`);
      else t.rows.forEach((r, j) => {
        if (!Array.isArray(r) || r.length !== (t.columns || []).length) errs.push(`${w}.rows[${j}]: expected ${(t.columns || []).length} cells`);
      });
      const nulls = [];
      (t.rows || []).forEach((r, j) => Array.isArray(r) && r.forEach((c, k) => c === null && nulls.push(`${j}:${(t.columns || [])[k]}`)));
      const filled = new Set();
      if (t.model !== undefined) {
        if (!Array.isArray(t.model)) errs.push(`${w}: "model" must be an array of {"row", "column", "value", "variant"?, "at"?}`);
        else t.model.forEach((m, j) => {
          const mw = `${w}.model[${j}]`;
          if (!isObj(m) || !isObj(m.value)) return errs.push(`${mw}: expected {"row", "column", "value": VALUE}`);
          if (!Number.isInteger(m.row) || m.row < 0 || m.row >= (t.rows || []).length) errs.push(`${mw}: "row" must index a row`);
          if (!(t.columns || []).includes(m.column)) errs.push(`${mw}: "column" must name a column`);
          const key = `${m.row}:${m.column}`;
          if (!nulls.includes(key)) errs.push(`${mw}: the cell ${key} must be null in "rows" (the model fills it)`);
          filled.add(key);
          checkVariant(m.variant, mw);
          if (m.at !== undefined) checkPos(m.at, `${mw}.at`, errs);
          errs.push(...validatePredicate({ ...m.value, op: '==', value: 0 }, `${mw}.value`));
        });
      }
      for (const k of nulls) if (!filled.has(k)) errs.push(`${w}: the null cell ${k} has no "model" entry`);
      if (t.evidence !== undefined) {
        if (!Array.isArray(t.evidence) || t.evidence.some((e) => typeof e !== 'string' || !e.trim())) errs.push(`${w}: "evidence" must be an array of strings quoted from the source`);
      }
    });
  }

  const sb = lesson.sandbox;
  if (!isObj(sb)) errs.push(`${L}: "sandbox" must be an object`);
  else {
    const w = `${L} sandbox`;
    checkText(sb.prompt, w, errs, 'prompt');
    checkScenario(sb.scenario, `${w}.scenario`, errs);
    checkPreset(sb.preset, w, errs);
    checkSets(sb.sets, w, errs);
    if (typeof sb.cache !== 'string') errs.push(`${w}: "cache" must be the cache the sandbox shows`);
    const posInt = (x) => Number.isInteger(x) && x >= 0;
    if (!isObj(sb.limit) || (sb.limit.ops === undefined && sb.limit.steps === undefined) ||
        (sb.limit.ops !== undefined && !posInt(sb.limit.ops)) || (sb.limit.steps !== undefined && !posInt(sb.limit.steps))) {
      errs.push(`${w}: "limit" must be {"ops": N} and/or {"steps": N} (N >= 0)`);
    }
    if (sb.limit?.steps !== undefined && sb.allow?.steps !== true) errs.push(`${w}: limit.steps needs "allow": {"steps": true}`);
    if (sb.expect_report !== undefined && typeof sb.expect_report !== 'boolean') errs.push(`${w}: "expect_report" must be true or false`);
    if (sb.allow !== undefined) {
      if (!isObj(sb.allow)) errs.push(`${w}: "allow" must be an object`);
      else {
        const { ops } = vocabulary();
        if (sb.allow.ops !== undefined && (!Array.isArray(sb.allow.ops) || sb.allow.ops.some((o) => !ops.includes(o)))) errs.push(`${w}: allow.ops must list ops (${ops.join(', ')})`);
        if (sb.allow.cpus !== undefined && (!Array.isArray(sb.allow.cpus) || sb.allow.cpus.some((c) => !Number.isInteger(c)))) errs.push(`${w}: allow.cpus must list CPU numbers`);
        if (sb.allow.caches !== undefined && !Array.isArray(sb.allow.caches)) errs.push(`${w}: allow.caches must list cache names`);
        if (sb.allow.steps !== undefined && typeof sb.allow.steps !== 'boolean') errs.push(`${w}: allow.steps must be true or false`);
      }
    }
    if (!Array.isArray(sb.goals) || !sb.goals.length) errs.push(`${w}: "goals" must be a non-empty array`);
    else sb.goals.forEach((g, i) => {
      const gw = `${w}.goals[${i}]${g && g.id ? ` (${g.id})` : ''}`;
      if (!isObj(g)) return errs.push(`${gw}: expected an object`);
      uniq(g.id, gw);
      checkText(g.text, gw, errs);
      checkPred(g.check, `${gw}.check`, errs);
    });
    for (const k of ['solution', 'wrong']) {
      if (!Array.isArray(sb[k]) || !sb[k].length || sb[k].some((x) => typeof x !== 'string')) errs.push(`${w}: "${k}" must be a non-empty array of op${sb.allow?.steps ? ' or steps' : ''} lines`);
      else if (isObj(sb.limit)) errs.push(...checkSandboxLines(sb, sandboxLines(sb[k])).map((e) => `${w}.${k}: ${e}`));
    }
  }
  return errs;
}

/** Is s a list id "KIND:N"? */
export function isListId(s) {
  if (typeof s !== 'string') return false;
  const m = /^([a-z_]+):(\d+)$/.exec(s);
  return !!m && (NODE_LIST_KINDS.includes(m[1]) || CPU_LIST_KINDS.includes(m[1]));
}

/** The elements of a kind a student can click in a snapshot, as ids (numbers,
 * or "KIND:N" for lists). Slabs, objects, sheaves and lists are those of
 * `cacheName`. */
export function clickCandidates(snap, kind, cacheName) {
  const cache = cacheName === undefined ? null : (snap.caches || []).find((c) => c.name === cacheName);
  if (cacheName !== undefined && !cache) throw new Error(`no cache ${cacheName} in the snapshot`);
  switch (kind) {
    case 'slab': return snap.slabs.filter((s) => s.cache === cache.id).map((s) => s.id);
    case 'object': {
      const out = [];
      for (const s of snap.slabs.filter((x) => x.cache === cache.id)) for (let i = 0; i < s.objects; i++) out.push(s.obj0 + i);
      return out;
    }
    case 'sheaf': return snap.sheaves.filter((s) => s.cache === cache.id).map((s) => s.id);
    case 'cpu': return snap.topology.nodes.flatMap((n) => n.cpus).sort((a, b) => a - b);
    case 'node': return snap.topology.nodes.map((n) => n.id);
    case 'list': {
      const out = [];
      for (const n of cache.nodes || []) {
        out.push(`partial:${n.node}`, `full:${n.node}`);
        if (n.barn) out.push(`barn_full:${n.node}`, `barn_empty:${n.node}`);
      }
      const kinds = snap.config.era === 'classic' ? ['cpu_slab', 'cpu_partial'] : ['main', 'spare'];
      for (const c of cache.cpus || []) for (const k of kinds) out.push(`${k}:${c.cpu}`);
      return out;
    }
    default: throw new Error(`unknown click target ${kind}`);
  }
}

/** Does a highlighted element exist in the snapshot? null if yes, else why not. */
export function missingHighlight(snap, h, cacheName) {
  const cache = (snap.caches || []).find((c) => c.name === cacheName);
  if ('slab' in h) return snap.slabs.some((s) => s.id === h.slab) ? null : `slab ${h.slab} is not live`;
  if ('sheaf' in h) return snap.sheaves.some((s) => s.id === h.sheaf) ? null : `sheaf ${h.sheaf} is not live`;
  if ('obj' in h) return snap.slabs.some((s) => h.obj >= s.obj0 && h.obj < s.obj0 + s.objects) ? null : `object ${h.obj} is in no live slab`;
  if ('cpu' in h) return snap.topology.nodes.some((n) => n.cpus.includes(h.cpu)) ? null : `no CPU ${h.cpu}`;
  if ('node' in h) return snap.topology.nodes.some((n) => n.id === h.node) ? null : `no node ${h.node}`;
  if ('list' in h) {
    if (!cache) return `no cache ${cacheName}`;
    return clickCandidates(snap, 'list', cacheName).includes(h.list) ? null : `no list ${h.list} for ${cacheName}`;
  }
  if ('stat' in h) {
    if (!cache) return `no cache ${cacheName}`;
    const known = (cache.stats && h.stat in cache.stats) || h.stat in cache ||
      (cache.nodes || []).some((n) => n.counters && h.stat in n.counters);
    return known ? null : `no stat or counter ${h.stat} for ${cacheName}`;
  }
  return null; // sysfs, slabinfo, table: checked elsewhere
}
