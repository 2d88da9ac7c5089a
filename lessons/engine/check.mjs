// The lesson check (docs/lessons.md, "What the check asserts"): replays a
// lesson on the model and verifies every stop, question, claim, data table
// and the sandbox. Used by test/lessons.test.mjs under Node; pure ES module
// (the caller passes `open` and `readScenario`), so a browser can run it too.
//
//   const report = checkLesson(lesson, {
//     open: (trace, { preset, sets }) => SlubvizSession.open(mod, trace, { preset, sets }),
//     readScenario: (file) => readFileSync(join(ROOT, file), 'utf8'),
//   });
//   report.items: [{ kind, id, ok, message }]

import {
  clickCandidates, describePosition, isStepsLine, missingHighlight, questionsAfterStops, runConfig, sandboxLines, sandboxTrace,
  checkSandboxLines, setsText, textSpoilers,
} from './lesson-format.mjs';
import { STATE_NEEDS, explain, requirements } from './predicates.mjs';
import { runProbes } from './runner.mjs';
import { checkTranslation } from './translation.mjs';

function scenarioText(sc, readScenario) {
  return 'inline' in sc ? sc.inline : readScenario(sc.file);
}

function opener(open, text, preset, sets) {
  return () => open(text, { preset: preset ?? '', sets: setsText(sets) || null });
}

function need(pred) {
  return requirements(pred);
}

/** What a list of requirements() asks for together (the player merges a
 * question's choices with it too). */
export function mergeReq(list) {
  const flags = [...STATE_NEEDS, 'events', 'before'];
  const r = { ...Object.fromEntries(flags.map((k) => [k, false])), sysfs: [] };
  for (const x of list) {
    for (const k of flags) r[k] ||= x[k];
    for (const c of x.sysfs) if (!r.sysfs.includes(c)) r.sysfs.push(c);
  }
  return r;
}

function fmt(v) {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 160 ? s.slice(0, 160) + '…' : s;
}

/** Check one lesson. Returns { items: [{kind, id, ok, message}] }. */
export function checkLesson(lesson, { open, readScenario, sources, prose }) {
  const items = [];
  const add = (kind, id, ok, message = '') => items.push({ kind, id, ok, message });
  const byVariant = new Map(); // variant -> [{probe, check(result)}]
  const want = (variant, probe, check) => {
    const v = variant ?? 'base';
    if (!byVariant.has(v)) byVariant.set(v, []);
    byVariant.get(v).push({ probe, check });
  };

  // ---- stops: the position exists, highlighted elements exist there
  for (const s of lesson.stops) {
    const cache = s.cache ?? lesson.cache;
    const hasSysfs = s.highlight.some((h) => 'sysfs' in h);
    want(s.variant, {
      id: `stop:${s.id}`, at: s.at,
      need: { snapshot: true, stats: true, slabinfo: s.highlight.some((h) => 'slabinfo' in h), sysfs: hasSysfs ? [cache] : [] },
    }, (r) => {
      const snap = JSON.parse(r.ctx.after.snapshot);
      const problems = [];
      if (!snap.caches.some((c) => c.name === cache)) problems.push(`no cache ${cache} at this stop`);
      for (const h of s.highlight) {
        const why = missingHighlight(snap, h, cache);
        if (why) problems.push(why);
        if ('sysfs' in h && !r.ctx.after.sysfs[cache].includes(`./${h.sysfs}:`)) problems.push(`no sysfs attribute ${h.sysfs}`);
        if ('slabinfo' in h && !r.ctx.after.slabinfo.split('\n').some((l) => l.split(/\s+/)[0] === h.slabinfo)) problems.push(`no slabinfo row ${h.slabinfo}`);
        if ('table' in h && !(lesson.data?.tables || []).some((t) => t.id === h.table)) problems.push(`no data table ${h.table}`);
      }
      if (s.cpu !== undefined && !snap.topology.nodes.some((n) => n.cpus.includes(s.cpu))) problems.push(`no CPU ${s.cpu}`);
      return problems.length ? `${describePosition(s.at)} (step ${r.steps.at}): ${problems.join('; ')}` : null;
    });
  }

  // ---- questions: the stated answer is what the model does
  for (const q of lesson.questions) {
    if (q.kind === 'choice') {
      const req = mergeReq(q.choices.map((c) => need(c.check)));
      want(q.variant, { id: `q:${q.id}`, at: q.reveal, from: q.at, need: { ...req, before: true }, events: req.events }, (r) => {
        const answer = new Set(Array.isArray(q.answer) ? q.answer : [q.answer]);
        const problems = [];
        for (const c of q.choices) {
          const e = explain(c.check, r.ctx);
          if (e.error) problems.push(`choice ${c.id}: ${e.error}`);
          else if (e.ok !== answer.has(c.id)) {
            problems.push(`choice ${c.id} ("${c.text}") is marked ${answer.has(c.id) ? 'right' : 'wrong'} but its check is ${e.ok}${e.value !== undefined ? ` (value ${fmt(e.value)})` : ''}`);
          }
        }
        return problems.length ? problems.join('; ') : null;
      });
    } else {
      const req = need(q.check);
      want(q.variant, {
        id: `q:${q.id}`, at: q.reveal, from: q.at,
        need: { ...req, snapshot: true, before: true }, events: req.events,
      }, (r) => {
        const snapAt = JSON.parse(r.ctx.before.snapshot);
        let cands;
        try {
          cands = clickCandidates(snapAt, q.target, q.cache);
        } catch (e) {
          return e.message;
        }
        if (!cands.some((c) => String(c) === String(q.answer))) return `the stored answer ${q.answer} is not a ${q.target} the student can click at ${describePosition(q.at)}`;
        const accepted = [];
        for (const c of cands) {
          const e = explain(q.check, { ...r.ctx, target: c });
          if (e.error) return `target ${c}: ${e.error}`;
          if (e.ok) accepted.push(c);
        }
        if (!accepted.some((c) => String(c) === String(q.answer))) return `the check rejects the stored answer ${q.answer} (accepts ${fmt(accepted)})`;
        if (accepted.length === cands.length) return `the check accepts every ${q.target} (${cands.length}): a wrong click would pass`;
        if (q.unique !== false && accepted.length !== 1) return `the check accepts ${accepted.length} ${q.target}s (${fmt(accepted)}), expected exactly one`;
        return null;
      });
    }
  }

  // ---- claims: statements of the lesson the model must bear out
  for (const c of lesson.claims || []) {
    if (c.compare) {
      const sides = {};
      const done = () => {
        if (!sides.left || !sides.right) return;
        const { left, right, op } = c.compare;
        const f = c.compare.factor ?? 1;
        const a = sides.left.v;
        const b = sides.right.v * f;
        const ok = { '==': a === b, '!=': a !== b, '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b }[op];
        add('claim', c.id, ok, ok ? '' : `${left.variant ?? 'base'}: ${a} ${op} ${f === 1 ? '' : f + ' × '}${right.variant ?? 'base'}: ${sides.right.v} is false`);
      };
      for (const side of ['left', 'right']) {
        const spec = c.compare[side];
        want(spec.variant, { id: `claim:${c.id}:${side}`, at: spec.at ?? { end: true }, need: need(spec.value), events: false }, (r) => {
          const e = explain({ ...spec.value, op: '>=', value: -Infinity }, r.ctx);
          if (e.error) return `${side}: ${e.error}`;
          sides[side] = { v: Number(e.value) };
          done();
          return undefined; // reported by done()
        });
      }
      continue;
    }
    const req = need(c.check);
    if (req.events && !c.from) {
      add('claim', c.id, false, 'the check reads events: give the claim a "from" position (the window start)');
      continue;
    }
    want(c.variant, { id: `claim:${c.id}`, at: c.at ?? { end: true }, from: c.from, need: req, events: req.events }, (r) => {
      const e = explain(c.check, r.ctx);
      if (e.error) return e.error;
      return e.ok ? null : `false at ${describePosition(c.at ?? { end: true })}${e.value !== undefined ? ` (value ${fmt(e.value)})` : ''}`;
    });
  }

  // ---- data tables: the model's column is computed (recorded in report.values)
  const values = {};
  for (const t of lesson.data?.tables || []) {
    (t.model || []).forEach((m, j) => {
      want(m.variant, { id: `data:${t.id}:${j}`, at: m.at ?? { end: true }, need: need(m.value), events: false }, (r) => {
        const e = explain({ ...m.value, op: '>=', value: -Infinity }, r.ctx);
        if (e.error) return e.error;
        values[`${t.id}:${m.row}:${m.column}`] = e.value;
        return null;
      });
    });
  }

  // ---- sources: the prose cites each source by its public title and every
  // commit by id; quoted figures and in_seed commits are in the source's
  // excerpts (lessons/sources.json), so the check runs in any clone.
  const sourceOf = (id) => sources?.sources?.[id];
  if (prose !== undefined) {
    const missing = [];
    const body = norm(prose);
    for (const sd of lesson.seeds) {
      const src = sourceOf(sd.file);
      if (!src) missing.push(`${sd.file} (not in lessons/sources.json)`);
      else if (!body.includes(norm(src.title))) missing.push(`the title of ${sd.file}: ${JSON.stringify(src.title)}`);
    }
    for (const c of lesson.commits) if (!prose.includes(c.id.slice(0, 12))) missing.push(c.id.slice(0, 12));
    add('source', 'prose-cites', missing.length === 0, missing.length ? `lesson.md does not cite ${missing.join(', ')}` : '');
  }
  if (sources) {
    const excerptText = (id) => {
      const src = sourceOf(id);
      return src ? norm(src.excerpts.map((e) => e.text).join('\n')) : null;
    };
    const all = lesson.seeds.map((sd) => excerptText(sd.file) ?? '').join(' ');
    for (const c of lesson.commits.filter((x) => x.in_seed)) {
      add('source', `commit-${c.id.slice(0, 12)}`, all.includes(c.id.slice(0, 12)), `commit ${c.id} is marked in_seed but no excerpt of the lesson's sources names it`);
    }
    for (const t of (lesson.data?.tables || []).filter((x) => x.source !== 'model')) {
      const body = excerptText(t.source);
      if (body === null) {
        add('source', `table-${t.id}`, false, `source ${t.source} is not in lessons/sources.json`);
        continue;
      }
      const absent = (t.evidence || []).filter((e) => !body.includes(norm(e)));
      add('source', `table-${t.id}`, absent.length === 0, absent.length ? `not in the excerpts of ${t.source}: ${absent.map((x) => JSON.stringify(x)).join(', ')}` : '');
    }
  }

  // ---- run every variant's probes
  const reached = new Map(); // probe id -> { run, at, from } (step counts)
  for (const [variant, list] of byVariant) {
    let cfg;
    try {
      cfg = runConfig(lesson, variant);
    } catch (e) {
      for (const { probe } of list) add(kindOf(probe.id), idOf(probe.id), false, e.message);
      continue;
    }
    let text;
    try {
      text = scenarioText(cfg.scenario, readScenario);
    } catch (e) {
      for (const { probe } of list) add(kindOf(probe.id), idOf(probe.id), false, `scenario: ${e.message}`);
      continue;
    }
    let out;
    try {
      out = runProbes(opener(open, text, cfg.preset, cfg.sets), list.map((x) => x.probe));
    } catch (e) {
      for (const { probe } of list) add(kindOf(probe.id), idOf(probe.id), false, `variant ${variant}: ${e.message}`);
      continue;
    }
    if (out.info && !!out.info.runError !== cfg.expectReport) {
      add('run', variant, false, cfg.expectReport ? `the run of variant ${variant} should stop on a kernel-style report (expect_report) but ran to its end`
        : `the run of variant ${variant} stopped: ${out.info.runError}`);
    }
    for (const { probe, check } of list) {
      const r = out.results.get(probe.id);
      const kind = kindOf(probe.id);
      if (!r || r.error) {
        add(kind, idOf(probe.id), false, `${variant === 'base' ? '' : `variant ${variant}: `}${r ? r.error : 'not run'}`);
        continue;
      }
      reached.set(probe.id, { run: JSON.stringify(cfg), ...r.steps });
      const msg = check(r);
      if (msg === undefined) continue; // reported elsewhere (compare claims)
      add(kind, idOf(probe.id), msg === null, msg ? `${variant === 'base' ? '' : `variant ${variant}: `}${msg}` : '');
    }
  }

  items.push(...spoilerItems(lesson, reached));

  // ---- sandbox: the stored solution reaches every goal, the wrong sample does not
  if (lesson.sandbox) items.push(...checkSandbox(lesson, { open, readScenario }));
  return { items, values };
}

/** The no-spoiler rule: the stop a question follows must neither state its
 * answer (textSpoilers) nor show the visualizer at or past the question's
 * reveal on the same run (the student would watch the answer happen).
 * `reached` maps probe ids to their run and step counts. */
export function spoilerItems(lesson, reached) {
  const bad = new Map(); // question id -> [why]
  const say = (qid, why) => bad.set(qid, [...(bad.get(qid) ?? []), why]);
  for (const s of textSpoilers(lesson)) say(s.question, `${s.where} states the answer (${JSON.stringify(s.term)})`);
  for (const { question: q, stop: last } of questionsAfterStops(lesson)) {
    const st = last && reached.get(`stop:${last.id}`);
    const qr = reached.get(`q:${q.id}`);
    // a question whose window is empty asks to read the state at its position:
    // a later stop shows nothing the question's own position does not
    if (st && qr && st.run === qr.run && qr.at > qr.from && st.at >= qr.at) {
      say(q.id, `stop ${last.id} shows ${describePosition(last.at)} (step ${st.at}), at or past the reveal (step ${qr.at}): ask the question before that stop`);
    }
  }
  return lesson.questions.map((q) => ({ kind: 'spoiler', id: q.id, ok: !bad.has(q.id), message: (bad.get(q.id) ?? []).join('; ') }));
}

// whitespace-insensitive, and blind to e-mail quote markers at line starts
function norm(s) {
  return String(s).split('\n').map((l) => l.replace(/^\s*(>\s*)+/, '')).join(' ').replace(/\s+/g, ' ').trim();
}

function kindOf(id) {
  const k = id.split(':')[0];
  return { q: 'question' }[k] ?? k;
}
function idOf(id) {
  const parts = id.split(':');
  return parts[0] === 'claim' || parts[0] === 'data' ? parts.slice(1).join(':').replace(/:(left|right)$/, '') : parts[1];
}

/** Run a sandbox attempt: { ok, goals: [{id, ok, message}], errors: [...] }. */
export function runSandbox(lesson, lines, { open, readScenario }) {
  const sb = lesson.sandbox;
  const errors = checkSandboxLines(sb, lines);
  if (errors.length) return { ok: false, goals: [], errors };
  const base = scenarioText(sb.scenario, readScenario);
  // with steps, the student schedules the whole run: the window starts at
  // the start, and the base alone opens serially (an explicit schedule
  // needs steps)
  const scheduled = sb.allow?.steps === true;
  const opLines = lines.filter((l) => !(scheduled && isStepsLine(l)));
  let baseOps;
  try {
    const s = open(base, { preset: sb.preset ?? '', sets: setsText(scheduled ? { ...sb.sets, schedule: 'serial' } : sb.sets) || null });
    baseOps = s.opsTotal();
    s.close();
  } catch (e) {
    return { ok: false, goals: [], errors: [`the starting trace does not open: ${e.message}`] };
  }
  let text;
  try {
    text = sandboxTrace(base, lines);
  } catch (e) {
    return { ok: false, goals: [], errors: [e.message] };
  }
  const req = mergeReq(sb.goals.map((g) => requirements(g.check)));
  let out;
  try {
    out = runProbes(opener(open, text, sb.preset, sb.sets), [{
      id: 'goal', at: { end: true }, from: baseOps > 0 && !scheduled ? { op: baseOps - 1 } : { op: -1 },
      need: { ...req, before: true, run: true }, events: req.events,
    }]);
  } catch (e) {
    return { ok: false, goals: [], errors: [studentLines(e.message, base, text, lines)] };
  }
  const r = out.results.get('goal');
  if (!r || r.error) return { ok: false, goals: [], errors: [studentLines(r ? r.error : 'not run', base, text, lines)] };
  if (out.info.opsTotal !== baseOps + opLines.length) errors.push(`expected ${opLines.length} appended op(s), the trace has ${out.info.opsTotal - baseOps}`);
  // a kernel-style report is the goal of some sandboxes (expect_report), an error elsewhere
  // (a run stopped by a bad schedule step has no report: always an error)
  if (out.info.runError && !(sb.expect_report && r.ctx.after.reports)) errors.push(`the run stopped: ${studentLines(out.info.runError, base, text, lines)}`);
  const goals = sb.goals.map((g) => {
    const e = explain(g.check, r.ctx);
    return { id: g.id, ok: !e.error && e.ok, message: e.error ?? (e.ok ? '' : `not reached${e.value !== undefined ? ` (value ${fmt(e.value)})` : ''}`) };
  });
  return { ok: !errors.length && goals.every((g) => g.ok), goals, errors };
}

/** A message of the model about the sandbox trace, with its "line N" of
 * a student's line (a steps line put after the schedule, or an appended
 * op) told as "your line K". */
function studentLines(msg, base, text, lines) {
  const student = new Map(); // trace line number -> the student's line number
  const clean = lines.map((l, i) => [l.trim(), i + 1]).filter(([l]) => l);
  const steps = clean.filter(([l]) => isStepsLine(l));
  const ops = clean.filter(([l]) => !isStepsLine(l));
  const baseLines = base.split('\n').length - (base.endsWith('\n') ? 1 : 0);
  if (steps.length) {
    const sched = base.split('\n').findIndex((l) => /^schedule[ \t]/.test(l)) + 1;
    steps.forEach(([, k], j) => student.set(sched + 1 + j, k));
  }
  ops.forEach(([, k], j) => student.set(baseLines + steps.length + 1 + j, k));
  const traceLines = text.split('\n');
  // the parser says "trace:N:C:", the schedule "line N"
  return String(msg).replace(/\btrace:(\d+)(?::\d+)?:|\bline (\d+)/g, (all, a, b) => {
    const n = Number(a ?? b);
    const k = student.get(n);
    return k ? `your line ${k} ("${traceLines[n - 1].trim()}")${a ? ':' : ''}` : all;
  });
}

function checkSandbox(lesson, env) {
  const out = [];
  const sb = lesson.sandbox;
  const sol = runSandbox(lesson, sandboxLines(sb.solution), env);
  const bad = [...sol.errors, ...sol.goals.filter((g) => !g.ok).map((g) => `goal ${g.id}: ${g.message}`)];
  out.push({ kind: 'sandbox', id: 'solution', ok: sol.ok, message: bad.join('; ') });
  const wrong = runSandbox(lesson, sandboxLines(sb.wrong), env);
  out.push({
    kind: 'sandbox', id: 'wrong', ok: !wrong.ok && wrong.errors.length === 0,
    message: wrong.ok ? 'the wrong sample reaches every goal: the goals accept anything' :
      wrong.errors.length ? `the wrong sample does not run: ${wrong.errors.join('; ')}` : '',
  });
  return out;
}

// ---- translations (translation.mjs) ------------------------------------------

/** The lesson's translations against the lesson: one item per language the
 * index entry names, and one for a translation file the entry does not
 * name. `translations`: { lang: { json, prose } } as read from lessons/<id>/
 * (lesson.<lang>.json, lesson.<lang>.md); `prose`: the English lesson.md. */
export function checkTranslations(lesson, { entry, prose, translations = {} }) {
  const items = [];
  const langs = new Set([...Object.keys(entry?.translations ?? {}), ...Object.keys(translations)]);
  for (const lang of [...langs].sort()) {
    const tr = translations[lang];
    let errs;
    if (!tr) errs = [`index.json names ${lang} but lesson.${lang}.json is missing`];
    else if (!entry?.translations?.[lang]) errs = [`lesson.${lang}.json exists but index.json does not name ${lang} under "translations"`];
    else errs = checkTranslation(lesson, tr.json, { lang, entry, prose, trProse: tr.prose ?? '' });
    items.push({ kind: 'translation', id: lang, ok: errs.length === 0, message: errs.join('; ') || `${lang}: every text translated, figures kept` });
  }
  return items;
}
