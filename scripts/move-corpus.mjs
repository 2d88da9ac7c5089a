#!/usr/bin/env node
// The arena-moving build's corpus (ctest "move_corpus", registered only with
// -DSVZ_ARENA_ALWAYS_MOVE=ON): every scenario under every preset, every
// lesson's runs (base, variants, sandbox solution and wrong attempt) and
// every import sample under every preset, through that build's CLI. In this
// build every arena allocation moves the arena, so ASan reports any pointer
// into it kept across one (core/src/model/types.h, "The arena rule").
//
// A run fails on a signal, on any sanitizer report, or on an unexpected exit
// status (0 for scenarios and lessons; 0 or 2 for import samples, which may
// be refused on purpose, but never anything else).
// Validation: every op for short inputs; the spot-check cadence
// (SLUBVIZ_VALIDATE_EVERY) for inputs with `repeat` or many lines, which
// would be too slow under ASan otherwise.
//
// usage: node scripts/move-corpus.mjs SLUBVIZ_CLI [--jobs N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConfig, sandboxLines, sandboxTrace } from '../lessons/engine/lesson-format.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.argv[2];
const jobsArg = process.argv.indexOf('--jobs');
const JOBS = jobsArg > 0 ? Number(process.argv[jobsArg + 1]) : 2;
if (!cli) {
  console.error('usage: node scripts/move-corpus.mjs SLUBVIZ_CLI [--jobs N]');
  process.exit(2);
}
const SPOT_CHECK = '1000';
const SANITIZER = /AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:/;

const presets = spawnSync(cli, ['presets'], { encoding: 'utf8' }).stdout
  .split('\n').map((l) => l.split(/\s+/)[0]).filter(Boolean);
if (presets.length < 10) {
  console.error(`move-corpus: '${cli} presets' listed ${presets.length} presets`);
  process.exit(1);
}

const tmp = mkdtempSync(join(tmpdir(), 'svz-move-'));
let nTmp = 0;
const tmpFile = (text) => {
  const f = join(tmp, `t${nTmp++}.trace`);
  writeFileSync(f, text);
  return f;
};
// Every op validated unless the input is long (the validator is O(model)).
const cadence = (text) => (/^\s*repeat\b/m.test(text) || text.split('\n').length > 5000 ? SPOT_CHECK : '1');
const setArgs = (sets) => Object.entries(sets || {}).flatMap(([k, v]) => ['--set', `${k}=${v}`]);

const jobs = [];
const add = (name, file, preset, sets, okStatus) => {
  const text = readFileSync(file, 'latin1');
  const args = ['run', file, ...(preset ? ['--preset', preset] : []), ...setArgs(sets)];
  jobs.push({ name, args, every: cadence(text), okStatus });
};

// 1. scenarios x presets
const scenarios = readdirSync(join(ROOT, 'scenarios')).filter((f) => f.endsWith('.trace')).sort();
// the race scenario corrupts n->partial where the kernel did (the bisection
// blocker of seed 004): exit 2 there, as core/tests/cli_sched.sh checks
const raceExit = (s, p) => (s === 'race-17c38c88294d.trace' && p === 'v7.0-17c38c88294d' ? 2 : 0);
for (const s of scenarios)
  for (const p of presets) add(`scenario ${s} ${p}`, join(ROOT, 'scenarios', s), p, {}, [raceExit(s, p)]);

// 2. lessons: the base run, every variant, the sandbox's solution and wrong attempt
const index = JSON.parse(readFileSync(join(ROOT, 'lessons/index.json'), 'utf8'));
let nLessonRuns = 0;
for (const { id } of index.lessons) {
  const lesson = JSON.parse(readFileSync(join(ROOT, 'lessons', id, 'lesson.json'), 'utf8'));
  const scenarioFile = (sc) => (sc.file ? join(ROOT, sc.file) : tmpFile(sc.inline));
  for (const v of ['base', ...(lesson.variants || []).map((x) => x.id)]) {
    const cfg = runConfig(lesson, v);
    // a run the lesson expects to stop on a kernel-style report (expect_report) exits 2
    add(`lesson ${id} ${v}`, scenarioFile(cfg.scenario), cfg.preset, cfg.sets, [cfg.expectReport ? 2 : 0]);
    nLessonRuns++;
  }
  const sb = lesson.sandbox;
  if (sb) {
    const base = sb.scenario.file ? readFileSync(join(ROOT, sb.scenario.file), 'utf8') : sb.scenario.inline;
    // as lessons/engine/check.mjs runs them: both must run (the wrong one
    // just misses the goals)
    for (const which of ['solution', 'wrong']) {
      if (!sb[which]) continue;
      add(`lesson ${id} sandbox ${which}`, tmpFile(sandboxTrace(base, sandboxLines(sb[which]))),
        sb.preset ?? '', sb.sets, sb.expect_report ? [0, 2] : [0]);
      nLessonRuns++;
    }
  }
}

// 3. import samples (every trace-like file under core/tests/data) x presets
const DATA = join(ROOT, 'core/tests/data');
const samples = [];
const walk = (dir) => {
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (!/\.(md|tsv)$/.test(f) && !/slabinfo/.test(f)) samples.push(p);
  }
};
walk(DATA);
for (const s of samples)
  for (const p of presets) add(`import ${relative(DATA, s)} ${p}`, s, p, {}, [0, 2]);

function runJob(job) {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(cli, job.args, {
      env: { ...process.env, SLUBVIZ_VALIDATE_EVERY: job.every },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      if (stderr.length < 1 << 16) stderr += d;
    });
    child.on('close', (status, signal) => done({ job, status, signal, stderr, ms: Date.now() - t0 }));
  });
}

const t0 = Date.now();
const failures = [];
let next = 0;
let slowest = { ms: 0 };
async function worker() {
  while (next < jobs.length) {
    const r = await runJob(jobs[next++]);
    if (r.ms > slowest.ms) slowest = r;
    const why = r.signal ? `signal ${r.signal}`
      : SANITIZER.test(r.stderr) ? 'sanitizer report'
      : !r.job.okStatus.includes(r.status) ? `exit ${r.status}` : '';
    if (why) {
      failures.push(r);
      console.log(`FAIL ${r.job.name}: ${why}\n  ${cli} ${r.job.args.join(' ')}\n${r.stderr.split('\n').slice(0, 30).join('\n')}`);
    }
  }
}
await Promise.all(Array.from({ length: JOBS }, worker));
rmSync(tmp, { recursive: true, force: true });
console.log(`move-corpus: ${jobs.length} runs (${scenarios.length} scenarios x ${presets.length} presets, ` +
  `${nLessonRuns} lesson runs, ${samples.length} import samples x ${presets.length} presets), ` +
  `${failures.length} failed, ${((Date.now() - t0) / 1000).toFixed(1)} s ` +
  `(slowest: ${slowest.job?.name}, ${(slowest.ms / 1000).toFixed(1)} s)`);
process.exit(failures.length ? 1 : 0);
