#!/usr/bin/env node
// `npm run bench`: native vs wasm speed of the engine.
//
// For scenarios/fastpath.trace and scenarios/*ublk*.trace, with events off and
// on, runs
//     build/slubviz bench FILE [--events]
//     node build-wasm/slubviz_node.js bench FILE [--events]
// each --repeat times (default 3), keeps the median ns/op, and prints a table.
// The bench subcommand prints one line: ops=<n> steps=<n> ns_per_op=<float>.
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
// Usage: node scripts/bench.mjs [--repeat N] [--json] [--no-web] [--web-only] [TRACE...]
// Numbers only: nothing here asserts a speed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
const explicit = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--repeat') repeat = Number(argv[++i]);
  else if (a === '--json') json = true;
  else if (a === '--no-web') web = false;
  else if (a === '--web-only') webOnly = true;
  else if (a === '-h' || a === '--help') {
    console.log('usage: node scripts/bench.mjs [--repeat N] [--json] [--no-web] [--web-only] [TRACE...]');
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
  return traces;
}

const traces = explicit.length ? explicit : defaultTraces();
for (const [what, path, how] of [['native CLI', NATIVE, 'native'], ['wasm CLI', WASM, 'wasm']]) {
  if (!existsSync(path)) die(`${what} ${path} missing: run scripts/build.sh ${how}`);
}

const LINE = /^ops=(\d+) steps=(\d+) ns_per_op=([0-9.eE+-]+|inf|nan)\s*$/m;

/** One run; returns {ops, steps, nsPerOp}. */
function runOnce(engine, trace, events) {
  const args = ['bench', trace, ...(events ? ['--events'] : [])];
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
  for (const events of [false, true]) {
    let nativeNs;
    for (const engine of ['native', 'wasm']) {
      const runs = [];
      for (let i = 0; i < repeat; i++) runs.push(runOnce(engine, trace, events));
      const nsPerOp = median(runs.map((r) => r.nsPerOp));
      if (engine === 'native') nativeNs = nsPerOp;
      rows.push({
        trace,
        engine,
        events: events ? 'on' : 'off',
        ops: runs[0].ops,
        steps: runs[0].steps,
        nsPerOp,
        ratio: engine === 'wasm' && nativeNs > 0 ? nsPerOp / nativeNs : null,
      });
      if (!json) process.stderr.write('.');
    }
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
if (!json) process.stderr.write('\n');

/** The web app's benchmarks; returns their JSON results (json mode) or prints them. */
function webBench() {
  const out = {};
  const run = (what, cmd, args) => {
    if (!json) console.log('');
    const r = spawnSync(cmd, [...args, ...(json ? ['--json'] : [])], {
      cwd: ROOT, encoding: 'utf8', stdio: json ? ['ignore', 'pipe', 'inherit'] : 'inherit', maxBuffer: 64 << 20,
    });
    if (r.status !== 0) die(`${what} failed (exit ${r.status})`);
    if (json) out[what] = JSON.parse(r.stdout.trim().split('\n').pop());
  };
  const vite = spawnSync(join(ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'error'], {
    cwd: ROOT, stdio: ['ignore', json ? 'ignore' : 'inherit', 'inherit'],
  });
  if (vite.status !== 0) die('vite build failed');
  run('seek', join(ROOT, 'node_modules/.bin/vite-node'), ['web/bench/seek.ts']);
  run('fps', process.execPath, ['web/bench/fps.mjs']);
  run('import', process.execPath, ['web/bench/import.mjs']);
  return out;
}

if (json) {
  console.log(JSON.stringify({ repeat, rows, import: importRows, ...(web ? { web: webBench() } : {}) }, null, 2));
} else if (webOnly) {
  webBench();
} else {
  const header = ['trace', 'engine', 'events', 'ops', 'steps', 'ns/op', 'wasm/native'];
  const table = rows.map((r) => [
    r.trace.replace(/^scenarios\//, ''),
    r.engine,
    r.events,
    String(r.ops),
    String(r.steps),
    r.nsPerOp.toFixed(1),
    r.ratio === null ? '' : `${r.ratio.toFixed(2)}x`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const right = new Set([3, 4, 5, 6]);
  const fmt = (row) =>
    row.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(fmt(row));
  console.log(`\nmedian of ${repeat} run(s) each; node ${process.version}; ` +
    `wasm/native > 1 means wasm is slower.`);
  console.log(`\nimport of a generated ${IMPORT_LINES}-line ftrace log (slubviz import --bench):`);
  for (const r of importRows) {
    console.log(`  ${r.engine.padEnd(6)}  ${r.nsPerLine.toFixed(1).padStart(8)} ns/line  ` +
      `${Math.round(r.linesPerS).toLocaleString('en-US').padStart(10)} lines/s`);
  }
}
if (!json && web && !webOnly) webBench();
