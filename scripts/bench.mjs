#!/usr/bin/env node
// `npm run bench`: native vs wasm speed of the engine.
//
// For scenarios/fastpath.trace, scenarios/*ublk*.trace and
// scenarios/hackbench.trace (kmalloc and kfree only), with events off and on,
// runs
//     build/slubviz bench FILE [--events]
//     node build-wasm/slubviz_node.js bench FILE [--events]
// each --repeat times (default 3), the four runs of a trace (native and wasm,
// events off and on) taking turns so that all see the same machine, keeps the
// median ns/op, and prints a table. Each run
// starts with one untimed pass over the trace (--warmup 1): the figures are
// of compiled code, not of V8's first tier while it compiles (natively the
// warm-up changes nothing). The bench subcommand prints one line:
// ops=<n> steps=<n> ns_per_op=<float>.
//
// Import speed: `slubviz import --bench 1000000` (a generated 1M-line ftrace
// kmem log imported in memory, fed in 64 KiB chunks; prints
// lines=<n> ns_per_line=<float> lines_per_s=<float>), native and wasm CLI.
//
// Then the web app's figures (skip with --no-web):
//   - seek latency of the web engine (the worker's code) to random ops and
//     steps of a generated 1M-op trace: web/bench/seek.ts (vite-node);
//   - frames per second while playing the 64-CPU scenario in the built app
//     (system Chromium, requestAnimationFrame), and the bundle sizes (JS
//     gzipped, wasm): web/bench/fps.mjs;
//   - browser import speed: a generated 1M-line ftrace log imported through
//     the app (the worker streams it through svz_import_* in 1 MiB chunks),
//     as lines/s, with the main thread's longest frame gap meanwhile and the
//     time until the import is replay-ready: web/bench/import.mjs.
//
// At the end, every figure of issue 14 beside its target, each marked held
// or missed (the exit status stays 0: a record, not a test). --json prints
// them on stdout as one JSON object ({figures, rows, import, web}), the
// human tables going to stderr.
//
// Usage: node scripts/bench.mjs [--repeat N] [--json] [--no-web] [--web-only] [--port N] [TRACE...]
// (--port: the browser benchmarks serve web/dist on N and N+1, default 4179.)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const T0 = Date.now();
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NATIVE = join(ROOT, 'build/slubviz');
const WASM = join(ROOT, 'build-wasm/slubviz_node.js');

function die(msg) {
  console.error(`bench: ${msg}`);
  process.exit(1);
}

let repeat = 3;
let json = false;
let web = true;
let webOnly = false;
let port = 4179;
const explicit = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--repeat') repeat = Number(argv[++i]);
  else if (a === '--json') json = true;
  else if (a === '--no-web') web = false;
  else if (a === '--web-only') webOnly = true;
  else if (a === '--port') port = Number(argv[++i]);
  else if (a === '-h' || a === '--help') {
    console.log('usage: node scripts/bench.mjs [--repeat N] [--json] [--no-web] [--web-only] [--port N] [TRACE...]');
    process.exit(0);
  } else if (a.startsWith('-')) die(`unknown option ${a}`);
  else explicit.push(a);
}
if (!Number.isInteger(repeat) || repeat < 1) die('--repeat needs a positive integer');

function defaultTraces() {
  const dir = join(ROOT, 'scenarios');
  const all = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.trace')).sort() : [];
  const traces = [];
  if (all.includes('fastpath.trace')) traces.push('scenarios/fastpath.trace');
  else die('scenarios/fastpath.trace not found');
  const ublk = all.filter((f) => f.includes('ublk'));
  if (ublk.length === 0) die('no scenarios/*ublk*.trace found');
  traces.push(...ublk.map((f) => `scenarios/${f}`));
  // every op a kmalloc or a kfree, as in an imported ftrace log (no target:
  // the cost of finding the kmalloc cache per op)
  if (all.includes('hackbench.trace')) traces.push('scenarios/hackbench.trace');
  return traces;
}

const traces = explicit.length ? explicit : defaultTraces();
for (const [what, path, how] of [['native CLI', NATIVE, 'native'], ['wasm CLI', WASM, 'wasm']]) {
  if (!existsSync(path)) die(`${what} ${path} missing: run scripts/build.sh ${how}`);
}

const LINE = /^ops=(\d+) steps=(\d+) ns_per_op=([0-9.eE+-]+|inf|nan)\s*$/m;

/** One run; returns {ops, steps, nsPerOp}. */
function runOnce(engine, trace, events, extra = []) {
  const args = ['bench', trace, '--warmup', '1', ...(events ? ['--events'] : []), ...extra];
  const [cmd, cmdArgs] = engine === 'native' ? [NATIVE, args] : [process.execPath, [WASM, ...args]];
  const r = spawnSync(cmd, cmdArgs, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const shown = `${engine === 'native' ? 'build/slubviz' : 'node build-wasm/slubviz_node.js'} ${args.join(' ')}`;
  if (r.error) die(`${shown}: ${r.error.message}`);
  if (r.status !== 0) die(`${shown} exited ${r.status}${r.signal ? ` (${r.signal})` : ''}\n${r.stderr}`);
  const m = LINE.exec(r.stdout);
  if (!m) die(`${shown}: no "ops=<n> steps=<n> ns_per_op=<float>" line in:\n${r.stdout}`);
  return { ops: Number(m[1]), steps: Number(m[2]), nsPerOp: Number(m[3]) };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const rows = [];
for (const trace of webOnly ? [] : traces) {
  // the four (events, engine) pairs take turns, so the ratios between
  // them (wasm/native, events on/off) compare runs of the same moments
  const pairs = [false, true].flatMap((events) => ['native', 'wasm'].map((engine) => ({ events, engine, runs: [] })));
  for (let i = 0; i < repeat; i++) {
    for (const p of pairs) p.runs.push(runOnce(p.engine, trace, p.events));
    if (!json) process.stderr.write('.');
  }
  // a ratio is the median of the rounds' ratios: each round's two runs
  // were taken next to each other, so a burst of load on the machine
  // moves one round's ratio, not the median's two halves apart
  const roundRatio = (runs, base) => median(runs.map((r, i) => (base.runs[i].nsPerOp > 0 ? r.nsPerOp / base.runs[i].nsPerOp : Infinity)));
  for (const { events, engine, runs } of pairs) {
    const native = pairs.find((p) => p.events === events && p.engine === 'native');
    const eventsOff = pairs.find((p) => !p.events && p.engine === engine);
    rows.push({
      trace,
      engine,
      events: events ? 'on' : 'off',
      ops: runs[0].ops,
      steps: runs[0].steps,
      nsPerOp: median(runs.map((r) => r.nsPerOp)),
      ratio: engine === 'wasm' ? roundRatio(runs, native) : null,
      onOff: events ? roundRatio(runs, eventsOff) : null,
    });
  }
}

const IMPORT_LINES = 1000000;
const IMPORT_LINE = /^lines=(\d+) ns_per_line=([0-9.eE+-]+) lines_per_s=([0-9.eE+-]+)\s*$/m;
const importRows = [];
for (const engine of webOnly ? [] : ['native', 'wasm']) {
  const args = ['import', '--bench', String(IMPORT_LINES)];
  const [cmd, cmdArgs] = engine === 'native' ? [NATIVE, args] : [process.execPath, [WASM, ...args]];
  const runs = [];
  for (let i = 0; i < repeat; i++) {
    const r = spawnSync(cmd, cmdArgs, { cwd: ROOT, encoding: 'utf8' });
    const m = r.status === 0 ? IMPORT_LINE.exec(r.stdout) : null;
    if (!m) die(`${engine} import --bench failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
    runs.push(Number(m[2]));
  }
  const nsPerLine = median(runs);
  importRows.push({ engine, lines: IMPORT_LINES, nsPerLine, linesPerS: nsPerLine > 0 ? 1e9 / nsPerLine : 0 });
  if (!json) process.stderr.write('.');
}

/** The web app's benchmarks; returns their JSON results. */
function webBench() {
  const out = {};
  const run = (what, cmd, args) => {
    const r = spawnSync(cmd, [...args, '--json'], {
      cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20,
    });
    if (r.status !== 0) die(`${what} failed (exit ${r.status})`);
    out[what] = JSON.parse(r.stdout.trim().split('\n').pop());
    if (!json) process.stderr.write('.');
  };
  const vite = spawnSync(join(ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'error'], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (vite.status !== 0) die('vite build failed');
  run('seek', join(ROOT, 'node_modules/.bin/vite-node'), ['web/bench/seek.ts']);
  run('fps', process.execPath, ['web/bench/fps.mjs', '--port', String(port)]);
  run('import', process.execPath, ['web/bench/import.mjs', '--port', String(port + 1)]);
  return out;
}

// The timed schedule (issue 11) against serial, per op of the same trace:
// per-CPU clocks, lock-holder bookkeeping and a CPU pick at every step.
let timedRow = null;
const ublkTrace = traces.find((t) => t.endsWith('ublk-bio256.trace'));
if (!webOnly && ublkTrace) {
  const med = (sched) => median(Array.from({ length: repeat }, () => runOnce('native', ublkTrace, false, ['--schedule', sched]).nsPerOp));
  const serialNs = med('serial'), timedNs = med('timed');
  timedRow = { trace: ublkTrace, serial_ns_per_op: serialNs, timed_ns_per_op: timedNs, ratio: timedNs / serialNs };
}

const webOut = web ? webBench() : null;
if (!json) process.stderr.write('\n');

// ---- the figures of issue 14, each with its target ----
const figures = [];
/** cmp '<=' or '>='; value null = not measured in this run */
const fig = (key, what, value, unit, cmp, target) =>
  figures.push({ key, what, value, unit, target, cmp, held: value === null || value === undefined ? null : cmp === '<=' ? value <= target : value >= target });
const row = (trace, engine, events) => rows.find((r) => r.trace.endsWith(trace) && r.engine === engine && r.events === events);
const fastOff = row('fastpath.trace', 'native', 'off'), fastOn = row('fastpath.trace', 'native', 'on');
fig('native_fastpath_off', 'native fastpath.trace, events off', fastOff?.nsPerOp ?? null, 'ns/op', '<=', 60);
fig('native_fastpath_on_vs_off', 'native fastpath.trace, events on / off', fastOff && fastOn ? fastOn.onOff : null, 'x', '<=', 1.3);
fig('native_ublk_off', 'native ublk-bio256.trace, events off', row('ublk-bio256.trace', 'native', 'off')?.nsPerOp ?? null, 'ns/op', '<=', 100);
for (const t of ['fastpath', 'ublk-bio256'])
  for (const ev of ['off', 'on'])
    fig(`wasm_native_${t}_${ev}`, `wasm/native ${t}.trace, events ${ev}`, row(`${t}.trace`, 'wasm', ev)?.ratio ?? null, 'x', '<=', 1.5);
// The Release module is split (core/wasm/split.mjs): slubviz_core.wasm is
// what the page loads before its first screen; the deferred half comes after.
const wasmKB = (f) => (existsSync(join(ROOT, 'build-wasm', f)) ? statSync(join(ROOT, 'build-wasm', f)).size / 1000 : null);
const wasmFirst = wasmKB('slubviz_core.wasm'), wasmDeferred = wasmKB('slubviz_core.deferred.wasm');
fig('wasm_size', 'slubviz_core.wasm raw (before the first screen)', wasmFirst, 'KB', '<=', 200);
const w = webOut ?? {};
fig('replay_ready_1m', 'replay-ready after importing a 1M-line log (browser)', w.import?.replay_ready_ms ?? null, 'ms', '<=', 2000);
fig('preset_switch_ublk', 'preset switch on ublk-bio256 to the first drawn frame', w.fps?.preset_switch_ms ?? null, 'ms', '<=', 300);
fig('lesson_variant_switch', 'lesson 06 variant switch (base -> v6-19)', w.fps?.lesson_variant_switch_ms ?? null, 'ms', '<=', 1000);
const fpsOf = (what, speed) => w.fps?.fps.find((f) => f.what === what && f.speed === speed);
for (const [what, speed, label] of [
  ['ublk-bio256', 100, 'ublk-bio256 (64 CPUs) at 100 steps/s'],
  ['ublk-bio256', 10000, 'ublk-bio256 (64 CPUs) at 10,000 steps/s'],
  ['slab-512', 1000, 'a 512-object slab in the detail (live-30k, 1000 steps/s)'],
  ['live-30k', 1000, 'live-30k, 30,000 live objects (1000 steps/s)'],
]) {
  const f = fpsOf(what, speed);
  fig(`fps_${what}_${speed}`, `fps ${label}`, f?.fps ?? null, 'fps', '>=', 55);
  fig(`p95_${what}_${speed}`, `p95 frame ${label}`, f?.p95_frame_ms ?? null, 'ms', '<=', 20);
}
fig('main_js_gzip', 'main JS (entry + static imports) gzipped', w.fps ? w.fps.bundle.main_js_gzip_bytes / 1000 : null, 'KB', '<=', 150);
fig('cold_load', 'cold load to interactive (localhost)', w.fps?.cold_load_ms ?? null, 'ms', '<=', 700);

/** Left-aligned columns, except those in `right`. */
function table(header, body, right) {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const fmt = (r) => r.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [fmt(header), widths.map((n) => '-'.repeat(n)).join('  '), ...body.map(fmt)].join('\n');
}

const out = json ? (s) => process.stderr.write(`${s}\n`) : (s) => console.log(s);
if (rows.length) {
  out(table(['trace', 'engine', 'events', 'ops', 'steps', 'ns/op', 'wasm/native'], rows.map((r) => [
    r.trace.replace(/^scenarios\//, ''), r.engine, r.events, String(r.ops), String(r.steps),
    r.nsPerOp.toFixed(1), r.ratio === null ? '' : `${r.ratio.toFixed(2)}x`,
  ]), new Set([3, 4, 5, 6])));
  out(`\nmedian of ${repeat} run(s) each, native and wasm, events off and on taking turns, each after one untimed warm-up pass; ` +
    `a ratio is the median of the rounds' ratios; node ${process.version}; wasm/native > 1 means wasm is slower.`);
  if (timedRow)
    out(`\n--schedule timed against serial, native, events off, ${timedRow.trace.replace(/^scenarios\//, '')}: ` +
      `${timedRow.timed_ns_per_op.toFixed(1)} vs ${timedRow.serial_ns_per_op.toFixed(1)} ns/op (${timedRow.ratio.toFixed(2)}x)`);
  out(`\nimport of a generated ${IMPORT_LINES}-line ftrace log (slubviz import --bench):`);
  for (const r of importRows)
    out(`  ${r.engine.padEnd(6)}  ${r.nsPerLine.toFixed(1).padStart(8)} ns/line  ${Math.round(r.linesPerS).toLocaleString('en-US').padStart(10)} lines/s`);
}
if (w.seek) {
  const s = w.seek;
  out(`\nweb engine seek (${s.ops} ops, ${s.steps} steps; open + pre-pass ${s.open_ms} ms, ${s.checkpoints} checkpoints): ` +
    `random op median ${s.seek_op_ms.median} ms (p95 ${s.seek_op_ms.p95}), random step median ${s.seek_step_ms.median} ms, step back median ${s.step_back_ms.median} ms`);
}
if (w.import) {
  const i = w.import;
  out(`browser import of ${i.lines} lines: ${(i.import_ms / 1000).toFixed(2)} s (${Math.round(i.lines_per_s)} lines/s), longest frame gap ${Math.round(i.max_frame_gap_ms)} ms; ` +
    `replay-ready ${i.replay_ops} ops in ${Math.round(i.replay_ready_ms)} ms (${i.replay_checkpoints} checkpoints), seek to the middle ${Math.round(i.seek_middle_ms)} ms; ` +
    `the background pre-pass done after ${(i.prepass_done_ms / 1000).toFixed(2)} s (${i.prepass_checkpoints} checkpoints), then a seek to a third ${Math.round(i.seek_third_ms)} ms`);
}
/** A figure as printed: one more digit where the rounded value would read
 * as the target itself (1.30x beside <= 1.3x, MISSED) */
const shown = (f) => {
  if (f.value === null) return 'not run';
  let digits = f.unit === 'x' ? 2 : f.value < 100 ? 1 : 0;
  while (digits < 4 && f.value !== f.target && Number(f.value.toFixed(digits)) === f.target) digits++;
  return f.unit === 'x' ? `${f.value.toFixed(digits)}x` : `${f.value.toFixed(digits)} ${f.unit}`;
};
if (wasmFirst !== null && wasmDeferred !== null)
  out(`\nwasm module: slubviz_core.wasm ${wasmFirst.toFixed(1)} KB before the first screen + slubviz_core.deferred.wasm ${wasmDeferred.toFixed(1)} KB after it = ${(wasmFirst + wasmDeferred).toFixed(1)} KB`);
out('\nissue 14 targets:');
out(table(['figure', 'value', 'target', ''], figures.map((f) => [
  f.what, shown(f), `${f.cmp} ${f.target}${f.unit === 'x' ? 'x' : ` ${f.unit}`}`, f.held === null ? '-' : f.held ? 'held' : 'MISSED',
]), new Set([1])));
const held = figures.filter((f) => f.held).length, measured = figures.filter((f) => f.held !== null).length;
out(`${held} of ${measured} measured targets held; bench took ${Math.round((Date.now() - T0) / 1000)} s`);
if (json) console.log(JSON.stringify({ repeat, figures, wasm_kb: { first: wasmFirst, deferred: wasmDeferred }, rows, timed: timedRow, import: importRows, ...(webOut ? { web: webOut } : {}) }, null, 2));
