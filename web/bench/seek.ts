// Seek latency of the web engine (web/src/engine/engine.ts, the code the
// worker runs) on the browser wasm module under Node: opens a generated
// 1M-op trace as the page does (OPEN_FOREGROUND_MS of pre-pass, then the
// first screen), seeks to a few random ops before the background pre-pass
// has reached them, runs the rest of the pre-pass in slices (as the worker
// does while idle), then seeks to random ops and random steps. Run: node_modules/.bin/vite-node web/bench/seek.ts [--ops N] [--seeks N] [--json]
import { PREPASS_SLICE_MS } from '../src/engine/backend';
import { Engine } from '../src/engine/engine';
import { loadModule } from '../src/engine/testing';
import { OPEN_FOREGROUND_MS } from '../src/state/store';

const argv = process.argv.slice(2);
const arg = (k: string, d: number) => {
  const i = argv.indexOf(k);
  return i >= 0 ? Number(argv[i + 1]) : d;
};
const OPS = arg('--ops', 1_000_000);
const SEEKS = arg('--seeks', 200);
const json = argv.includes('--json');

/** A trace of exactly `ops` ops on 4 CPUs: batches of allocs on one CPU
 * freed on another (fast paths, barn traffic, refills, new slabs). */
export function bigTrace(ops: number): string {
  const per = 250; // allocs per round, then as many frees
  const rounds = Math.floor(ops / (2 * per));
  const rest = ops - rounds * 2 * per;
  let t = `# generated: ${ops} ops for the seek benchmark
slubviz-trace 1
node 0 mem=4G
cpus 0-3 node=0
preset v7.0+fix1+fix2
seed 11
cache bench-128 size=128
repeat ${rounds} r {
  repeat ${per} i {
    c{$r%4} alloc bench-128 o{$i}
  }
  repeat ${per} i {
    c{($r+1)%4} free bench-128 o{$i}
  }
}
`;
  for (let i = 0; i < rest; i++) t += i % 2 === 0 ? `c0 alloc bench-128 x${i}\n` : `c0 free bench-128 x${i - 1}\n`;
  return t;
}

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}
function pct(a: number[], p: number): number {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
}

// deterministic random
let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

const mod = await loadModule();
const e = new Engine(mod);
e.foregroundMs = OPEN_FOREGROUND_MS;
const trace = bigTrace(OPS);
let t0 = performance.now();
const first = e.open(trace, '', '').meta;
const openMs = performance.now() - t0;
// before the background pre-pass: forward from the frontier's checkpoint
const earlyMs: number[] = [];
for (let i = 0; i < 5; i++) {
  const op = Math.floor(rnd() * first.opsTotal);
  const t = performance.now();
  const f = e.seekOp(op);
  earlyMs.push(performance.now() - t);
  if (f.opsDone !== op) throw new Error(`seekOp(${op}) landed on ${f.opsDone}`);
}
t0 = performance.now();
while (!e.prepassDone) e.prepassSlice(PREPASS_SLICE_MS);
const prepassMs = performance.now() - t0;
const meta = e.meta!;

const opMs: number[] = [];
for (let i = 0; i < SEEKS; i++) {
  const op = Math.floor(rnd() * meta.opsTotal);
  t0 = performance.now();
  const f = e.seekOp(op);
  opMs.push(performance.now() - t0);
  if (f.opsDone !== op) throw new Error(`seekOp(${op}) landed on ${f.opsDone}`);
}
const seqMs: number[] = [];
for (let i = 0; i < SEEKS; i++) {
  const seq = Math.floor(rnd() * meta.seqTotal);
  t0 = performance.now();
  const f = e.seek(seq);
  seqMs.push(performance.now() - t0);
  if (f.seq !== seq) throw new Error(`seek(${seq}) landed on ${f.seq}`);
}
const backMs: number[] = [];
for (let i = 0; i < 50; i++) {
  t0 = performance.now();
  e.seek(Math.max(0, e.frame().seq - 1));
  backMs.push(performance.now() - t0);
}
const out = {
  ops: meta.opsTotal,
  steps: meta.seqTotal,
  open_ms: Math.round(openMs),
  early_seek_op_ms: { median: +median(earlyMs).toFixed(1), max: +Math.max(...earlyMs).toFixed(1) },
  background_prepass_ms: Math.round(prepassMs),
  checkpoints: meta.checkpoints,
  checkpoint_every_ops: meta.checkpointEvery,
  seek_op_ms: { median: +median(opMs).toFixed(2), p95: +pct(opMs, 95).toFixed(2), max: +Math.max(...opMs).toFixed(2) },
  seek_step_ms: { median: +median(seqMs).toFixed(2), p95: +pct(seqMs, 95).toFixed(2), max: +Math.max(...seqMs).toFixed(2) },
  step_back_ms: { median: +median(backMs).toFixed(2), p95: +pct(backMs, 95).toFixed(2) },
};
if (json) console.log(JSON.stringify(out));
else {
  console.log(`web engine seek (${out.ops} ops, ${out.steps} steps; open to the first screen ${out.open_ms} ms, the rest of the pre-pass in slices ${out.background_prepass_ms} ms, ${out.checkpoints} checkpoints every ${out.checkpoint_every_ops} ops)`);
  console.log(`  seek to random op before the background pre-pass  median ${out.early_seek_op_ms.median} ms  max ${out.early_seek_op_ms.max} ms  (5 seeks)`);
  console.log(`  seek to random op    median ${out.seek_op_ms.median} ms  p95 ${out.seek_op_ms.p95} ms  max ${out.seek_op_ms.max} ms  (${SEEKS} seeks, incl. snapshot)`);
  console.log(`  seek to random step  median ${out.seek_step_ms.median} ms  p95 ${out.seek_step_ms.p95} ms  max ${out.seek_step_ms.max} ms`);
  console.log(`  step back            median ${out.step_back_ms.median} ms  p95 ${out.step_back_ms.p95} ms`);
}
e.close();
