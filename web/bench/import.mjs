// Browser import speed: a generated N-line ftrace kmem log (default 1M
// lines, ~170 MB; web/src/engine/synth.ts, the shape of the core's
// `slubviz import --bench` log) built as a Blob in the page, then imported
// through the app's own path (store action importFile -> the worker streams
// it through svz_import_begin/feed/end in 1 MiB chunks, exports v1, stores
// it in IndexedDB). Prints the worker's import time as lines/s, the export
// and storing times, the longest main-thread frame gap while it ran (the
// page must not freeze), and, unless --no-replay, the time until the
// imported trace is replay-ready (open and the first screen; the rest of the
// pre-pass runs in the background), a seek to the middle before that pass
// has reached it, and when the background pass is done (the meta's final
// seqTotal) with its checkpoints.
// System Chromium through Playwright, the built app (web/dist).
// Run: node web/bench/import.mjs [--lines N] [--no-replay] [--json]
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { startPreview, waitUrl } from './preview.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = join(ROOT, 'web/dist');
const argv = process.argv.slice(2);
const arg = (k, d) => {
  const i = argv.indexOf(k);
  return i >= 0 ? Number(argv[i + 1]) : d;
};
const LINES = arg('--lines', 1_000_000);
const PORT = arg('--port', 4180);
const json = argv.includes('--json');
const replay = !argv.includes('--no-replay');

if (!existsSync(join(DIST, 'index.html'))) {
  console.error('bench: web/dist missing: run npm run web:build');
  process.exit(1);
}


const server = startPreview(ROOT, PORT);
let browser;
let out;
try {
  const base = `http://127.0.0.1:${PORT}/`;
  await waitUrl(base, 30_000);
  browser = await chromium.launch({
    executablePath: process.env.SVZ_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}?anim=0`);
  await page.waitForFunction(() => window.__slubviz?.state().status === 'ready', null, { timeout: 120_000 });
  page.setDefaultTimeout(30 * 60_000);
  out = await page.evaluate(
    async ({ lines, replay }) => {
      const h = window.__slubviz;
      let t0 = performance.now();
      const blob = h.synthFtrace(lines);
      const genMs = performance.now() - t0;
      // let the page settle (the generator's garbage) before measuring frames
      await new Promise((r) => setTimeout(r, 1500));
      // frame gaps on the main thread while the worker imports
      let maxGap = 0;
      let frames = 0;
      let last = performance.now();
      let on = true;
      const tick = (t) => {
        maxGap = Math.max(maxGap, t - last);
        frames++;
        last = t;
        if (on) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      t0 = performance.now();
      const r = await h.act('importFile', blob, `synth-${lines}.txt`);
      const wallMs = performance.now() - t0;
      on = false;
      const importFrames = frames;
      if (!r.ok) return { error: r.error };
      const res = {
        lines: r.meta.lines,
        bytes: blob.size,
        events: r.meta.summary.events,
        ops: r.meta.ops,
        v1_bytes: r.meta.v1Bytes,
        stored: r.stored,
        gen_ms: genMs,
        import_ms: r.ms.import,
        export_ms: r.ms.export,
        store_ms: r.ms.store,
        wall_ms: wallMs,
        lines_per_s: r.meta.lines / (r.ms.import / 1000),
        mb_per_s: blob.size / 1e6 / (r.ms.import / 1000),
        max_frame_gap_ms: maxGap,
        fps_during_import: (importFrames * 1000) / wallMs,
      };
      if (replay) {
        t0 = performance.now();
        await h.act('replayImport');
        const st = h.state();
        res.replay_ready_ms = performance.now() - t0;
        res.replay_ops = st.opsTotal;
        res.replay_steps = st.seqTotal;
        res.replay_checkpoints = st.checkpoints;
        const t1 = performance.now();
        await h.act('jumpToOp', Math.floor(st.opsTotal / 2));
        res.seek_middle_ms = performance.now() - t1;
        // the background pre-pass: done when the final meta arrives
        while (h.state().seqTotal === st.seqTotal && performance.now() - t0 < 300_000) await new Promise((r) => setTimeout(r, 50));
        const end = h.state();
        res.prepass_done_ms = performance.now() - t0;
        res.replay_steps = end.seqTotal;
        res.prepass_checkpoints = end.checkpoints;
        const t2 = performance.now();
        await h.act('jumpToOp', Math.floor(st.opsTotal / 3));
        res.seek_third_ms = performance.now() - t2;
      }
      return res;
    },
    { lines: LINES, replay },
  );
  if (errors.length) out.page_errors = errors;
} finally {
  await browser?.close();
  server.kill();
}
if (out.error) {
  console.error(`bench: browser import failed: ${out.error}`);
  process.exit(1);
}
if (json) console.log(JSON.stringify(out));
else {
  const f = (n) => Math.round(n).toLocaleString('en-US');
  console.log(`browser import of a generated ${f(out.lines)}-line ftrace log (${(out.bytes / 1e6).toFixed(0)} MB, ${f(out.events)} kmem events -> ${f(out.ops)} ops), system Chromium:`);
  console.log(`  import (worker, svz_import_* in 1 MiB chunks)  ${(out.import_ms / 1000).toFixed(2)} s  ${f(out.lines_per_s)} lines/s  ${out.mb_per_s.toFixed(1)} MB/s`);
  console.log(`  export v1 ${(out.export_ms / 1000).toFixed(2)} s (${(out.v1_bytes / 1e6).toFixed(0)} MB), IndexedDB store ${(out.store_ms / 1000).toFixed(2)} s; generating the log in the page ${(out.gen_ms / 1000).toFixed(2)} s`);
  console.log(`  main thread while importing: longest frame gap ${f(out.max_frame_gap_ms)} ms, ${out.fps_during_import.toFixed(1)} fps`);
  if (out.replay_ready_ms !== undefined)
    console.log(
      `  replay-ready (open, first screen, ${out.replay_checkpoints} checkpoints so far) ${(out.replay_ready_ms / 1000).toFixed(2)} s; seek to the middle before the background pre-pass reached it ${f(out.seek_middle_ms)} ms`,
    );
  if (out.prepass_done_ms !== undefined)
    console.log(
      `  background pre-pass done ${(out.prepass_done_ms / 1000).toFixed(2)} s after the replay started (${f(out.replay_steps)} steps, ${out.prepass_checkpoints} checkpoints); then a seek to a third ${f(out.seek_third_ms)} ms`,
    );
}
