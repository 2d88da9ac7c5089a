// Splits the browser module in two (wasm.cmake, Release builds; issue 14):
//   slubviz_core.wasm           what the page's first screen runs
//   slubviz_core.deferred.wasm  the rest, fetched once the first screen is up
// Emscripten (-sSPLIT_MODULE) links slubviz_core.wasm instrumented to record
// which functions run, and keeps the plain module as slubviz_core.wasm.orig.
// This runs the first screen's workload on the instrumented one under Node,
// then binaryen's wasm-split splits the plain one by that profile.
//
//   node split.mjs BUILD_DIR WASM_SPLIT DEFAULT_TRACE
//
// The workload is what the page does with the default scenario (basics),
// under the trace's own preset (the page's default, config.preset '') and
// under the newest (the picker's default in the manifest): open it, run the
// pre-pass with its checkpoints and stat totals, go back to op 0, draw it
// (snapshot, events, the slabinfo tab), step a CPU by hand, then play it to
// the end drawing every step (web/src/engine/engine.ts). What it misses is still
// correct in the page, only loaded sooner: a call into the deferred half loads
// it on the spot (slubviz-api.mjs, DeferredHalf), and the glue logs
// "placeholder function called: N". To name N, link with --profiling-funcs
// and add --placeholdermap below (the e2e test of the first screen fails on
// such a call).
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SlubvizSession, manifest } from './slubviz-api.mjs';

const [dir, wasmSplit, defaultTrace] = process.argv.slice(2);
if (!dir || !wasmSplit || !defaultTrace) {
  console.error('usage: node split.mjs BUILD_DIR WASM_SPLIT DEFAULT_TRACE');
  process.exit(2);
}
const wasm = join(dir, 'slubviz_core.wasm');
const plain = wasm + '.orig';
const profile = join(dir, 'slubviz_core.split-profile');

function firstScreen(mod, trace, preset) {
  const s = SlubvizSession.open(mod, trace, preset ? { preset } : {});
  try {
    s.setEvents(true);
    s.seq();
    // a checkpoint's bytes: the heap before and after (engine.ts)
    const checkpoint = () => {
      mod._svz_heap_used();
      const id = s.checkpoint();
      mod._svz_heap_used();
      return id;
    };
    const start = checkpoint();
    s.statTotals();
    const total = s.opsTotal();
    for (let op = 1; op <= total && s.runToOp(op) >= 0; op++) if (op % 8 === 0) checkpoint();
    s.statTotals();
    s.opsDone();
    s.runError();
    s.restore(start);
    const draw = () => {
      s.snapshotShared();
      s.eventsJson(Math.max(0, s.seq() - 64), 64);
      s.slabinfo(); // the text tab open at first
    };
    draw();
    s.stepCpu(0);
    draw();
    while (s.step() === 1) draw();
  } finally {
    s.close();
  }
}

const { default: factory } = await import(pathToFileURL(join(dir, 'slubviz_core.mjs')).href);
const mod = await factory({ wasmBinary: readFileSync(wasm), print() {}, printErr: (s) => console.error(s) });
if (typeof mod.asm.__write_profile !== 'function') {
  throw new Error(`${wasm} is not instrumented (no __write_profile): was it linked with -sSPLIT_MODULE?`);
}
// basics names v7.0+fix1+fix2, whose refill path (alloc_full_sheaf()) v7.1
// no longer takes: a workload of the newest preset alone left it out
for (const preset of ['', manifest(mod).default_preset]) firstScreen(mod, readFileSync(defaultTrace, 'utf8'), preset);
const room = 1 << 20;
const at = mod._malloc(room);
const n = mod.asm.__write_profile(at, room);
if (n <= 0 || n > room) throw new Error(`__write_profile returned ${n}`);
writeFileSync(profile, mod.HEAPU8.slice(at, at + n));

const primary = wasm + '.primary';
const deferred = join(dir, 'slubviz_core.deferred.wasm');
// the names slubviz-api.mjs and Emscripten's glue (-sSPLIT_MODULE) expect
const r = spawnSync(wasmSplit, ['--split', `--profile=${profile}`, plain,
  '-o1', primary, '-o2', deferred + '.tmp',
  '--export-prefix=%', '--placeholder-namespace=placeholder', '--import-namespace=primary',
  // what the module uses (the target_features section Emscripten leaves
  // does not list mutable globals, which the halves share)
  '--enable-mutable-globals', '--enable-simd', '--enable-bulk-memory', '--enable-sign-ext',
  '--enable-nontrapping-float-to-int'], { stdio: 'inherit' });
if (r.status !== 0) throw new Error(`${wasmSplit} failed (${r.error?.message ?? (r.signal ? `signal ${r.signal}` : `exit ${r.status}`)})`);
renameSync(deferred + '.tmp', deferred);
renameSync(primary, wasm);
rmSync(plain);
const kb = (f) => (statSync(f).size / 1000).toFixed(1);
console.log(`split: slubviz_core.wasm ${kb(wasm)} KB, slubviz_core.deferred.wasm ${kb(deferred)} KB`);
