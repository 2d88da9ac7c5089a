// The page's figures (issue 14), in the built app (web/dist, served by vite
// preview) in the system Chromium through Playwright:
//   - bundle sizes: the main JS chunk (the entry index.html loads, with its
//     static imports) gzipped, all JS, the wasm;
//   - cold load to interactive (median of five): a fresh page on the default scenario until
//     the app is ready with its first frame drawn (performance.now() at the
//     first animation frame after that, so from navigation start);
//   - frames per second while playing ublk-bio256 (64 CPUs) at 100 and
//     10,000 steps/s, and live-30k (30,000 live objects) with and without a
//     512-object slab in the slab detail (requestAnimationFrame gaps);
//   - a preset switch on ublk-bio256 until the next frame is drawn;
//   - a kernel variant switch inside lesson 06 (stop 0 -> stop v619), the
//     median of three fresh pages.
// Run: node web/bench/fps.mjs [--seconds N] [--speed N] [--port N] [--json]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { startPreview, waitUrl } from './preview.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = join(ROOT, 'web/dist');
const argv = process.argv.slice(2);
const arg = (k, d) => {
  const i = argv.indexOf(k);
  return i >= 0 ? Number(argv[i + 1]) : d;
};
const SECONDS = arg('--seconds', 4);
const SPEEDS = argv.includes('--speed') ? [arg('--speed', 1000)] : [100, 10000];
const PORT = arg('--port', 4179);
const json = argv.includes('--json');
const log = (s) => (json ? process.stderr : process.stdout).write(`${s}\n`);

if (!existsSync(join(DIST, 'index.html'))) {
  console.error('bench: web/dist missing: run npm run web:build');
  process.exit(1);
}

const gz = (b) => gzipSync(b, { level: 9 }).length;

/** The median of an odd number of timings, and all of them sorted (for the log). */
function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1], sorted };
}

/** The entry chunk and the chunks it imports statically (what the first
 * screen must load before it runs), from index.html's script and
 * modulepreload links. */
function mainChunks() {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const files = new Set();
  for (const m of html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/g)) files.add(m[1]);
  return [...files];
}

function bundleSizes() {
  const assets = join(DIST, 'assets');
  let js = 0, jsGz = 0;
  for (const f of readdirSync(assets).filter((f) => f.endsWith('.js'))) {
    const b = readFileSync(join(assets, f));
    js += b.length;
    jsGz += gz(b);
  }
  let main = 0, mainGz = 0;
  const chunks = mainChunks();
  for (const f of chunks) {
    const b = readFileSync(join(DIST, f));
    main += b.length;
    mainGz += gz(b);
  }
  const wasmB = readFileSync(join(DIST, 'wasm/slubviz_core.wasm'));
  // the half fetched after the first screen (core/wasm/split.mjs)
  const deferredB = readFileSync(join(DIST, 'wasm/slubviz_core.deferred.wasm'));
  const glue = readFileSync(join(DIST, 'wasm/slubviz_core.mjs'));
  return {
    main_chunks: chunks,
    main_js_bytes: main,
    main_js_gzip_bytes: mainGz,
    js_bytes: js,
    js_gzip_bytes: jsGz,
    wasm_glue_gzip_bytes: gz(glue),
    wasm_bytes: wasmB.length,
    wasm_gzip_bytes: gz(wasmB),
    wasm_deferred_bytes: deferredB.length,
    wasm_deferred_gzip_bytes: gz(deferredB),
  };
}

// Before the app's scripts: note the first animation frame at which the
// page shows it is ready with a frame drawn, read from the DOM as a user
// would see it (the status line and the step line's seq), not from the
// test hook, which waits for a test-only chunk.
const READY_PROBE = () => {
  const tick = () => {
    const ready = document.querySelector('[data-status="ready"]');
    const seq = Number(document.querySelector('[data-testid="step-line"]')?.getAttribute('data-seq') ?? -1);
    if (ready && seq >= 0) window.__svzReadyAt = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

/** Frame gaps while playing for `seconds` at `speed` steps/s from where the run is. */
async function playFps(page, speed, seconds) {
  await page.evaluate((s) => window.__slubviz.act('setSpeed', s), speed);
  return page.evaluate(async (seconds) => {
    const h = window.__slubviz;
    const seq0 = h.state().seq;
    const frames = [];
    let last = performance.now();
    let running = true;
    const loop = (t) => {
      frames.push(t - last);
      last = t;
      if (running) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
    void h.act('play');
    const start = performance.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    running = false;
    const elapsed = performance.now() - start;
    await h.act('pause');
    const s = [...frames.slice(1)].sort((a, b) => a - b);
    return {
      frames: frames.length,
      fps: (frames.length * 1000) / elapsed,
      p95_frame_ms: s[Math.floor(s.length * 0.95)] ?? 0,
      max_frame_ms: s[s.length - 1] ?? 0,
      steps_per_s: ((h.state().seq - seq0) * 1000) / elapsed,
    };
  }, seconds);
}

/** ms from calling `act` until the first animation frame after the app is
 * ready again (the switch drawn). */
async function timeSwitch(page, fn, arg) {
  return page.evaluate(
    async ({ fn, arg }) => {
      const t0 = performance.now();
      if (fn === 'preset') await window.__slubviz.act('setConfig', { preset: arg });
      else {
        await window.__slubvizLessons.act('openLesson', '06-sheaves-regression', arg);
        await window.__slubvizLessons.idle();
      }
      await window.__slubviz.idle();
      await new Promise((r) => requestAnimationFrame(() => r()));
      return performance.now() - t0;
    },
    { fn, arg },
  );
}

const waitReady = (page) =>
  page.waitForFunction(() => window.__slubviz?.state().status === 'ready' && !window.__slubviz.state().busy, null, {
    timeout: 120_000,
  });

const server = startPreview(ROOT, PORT);
const results = { bundle: bundleSizes(), fps: [] };
let browser;
try {
  const base = `http://127.0.0.1:${PORT}/`;
  await waitUrl(base, 30_000);
  browser = await chromium.launch({
    executablePath: process.env.SVZ_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const fresh = async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    return ctx.newPage();
  };

  // cold load: a new context (empty cache), the default scenario; the
  // median of five loads (single loads here spread over 530-830 ms)
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const page = await fresh();
    await page.addInitScript(READY_PROBE);
    await page.goto(base);
    await page.waitForFunction(() => window.__svzReadyAt !== undefined, null, { timeout: 120_000 });
    loads.push(await page.evaluate(() => window.__svzReadyAt));
    await page.context().close();
  }
  const load = median(loads);
  results.cold_load_ms = load.median;
  log(`cold load to interactive ${Math.round(load.median)} ms (median of 5: ${load.sorted.map(Math.round).join(', ')})`);

  const page = await fresh();
  await page.goto(`${base}#s=ublk-bio256`);
  await waitReady(page);
  for (const speed of SPEEDS) {
    await page.evaluate(() => window.__slubviz.act('toStart'));
    const r = await playFps(page, speed, SECONDS);
    results.fps.push({ what: 'ublk-bio256', speed, ...r });
    log(`playing ublk-bio256 (64 CPUs) at ${speed} steps/s: ${r.fps.toFixed(1)} fps (p95 frame ${r.p95_frame_ms.toFixed(1)} ms)`);
  }

  // preset switches on ublk-bio256 (to v7.0-rc1 and back): the median of 3
  const sw = [];
  for (const preset of ['v7.0-rc1', '', 'v7.0-rc1']) sw.push(await timeSwitch(page, 'preset', preset));
  const presetSwitch = median(sw);
  results.preset_switch_ms = presetSwitch.median;
  log(`preset switch on ublk-bio256 ${Math.round(presetSwitch.median)} ms (${presetSwitch.sorted.map(Math.round).join(', ')})`);

  // 30,000 live objects: play the churn phase (op 30,000 on), then again
  // with a 512-object slab in the slab detail
  await page.context().close();
  const lv = await fresh();
  await lv.goto(`${base}#s=live-30k`);
  await waitReady(lv);
  await lv.evaluate(async () => {
    const h = window.__slubviz;
    await h.act('jumpToOp', 30000);
    await h.act('selectCache', h.snapshot().caches.find((c) => c.name === 'small-8').id);
  });
  const live = await playFps(lv, 1000, SECONDS);
  results.fps.push({ what: 'live-30k', speed: 1000, ...live });
  log(`playing live-30k (30,000 live objects) at 1000 steps/s: ${live.fps.toFixed(1)} fps (p95 frame ${live.p95_frame_ms.toFixed(1)} ms)`);
  const objs = await lv.evaluate(async () => {
    const h = window.__slubviz;
    const slab = h.snapshot().slabs.find((s) => s.objects === 512);
    await h.act('selectSlab', slab.id);
    return slab.objects;
  });
  const slab = await playFps(lv, 1000, SECONDS);
  results.fps.push({ what: 'slab-512', speed: 1000, objects: objs, ...slab });
  log(`playing live-30k with a ${objs}-object slab in the detail at 1000 steps/s: ${slab.fps.toFixed(1)} fps (p95 frame ${slab.p95_frame_ms.toFixed(1)} ms)`);
  await lv.context().close();

  // a kernel variant switch in lesson 06: the first (cold) switch, on a
  // fresh page each time; the median of three (one switch varied 683-1235
  // ms between bench runs on a quiet machine)
  const switches = [];
  for (let i = 0; i < 3; i++) {
    const lp = await fresh();
    await lp.goto(`${base}#lesson=06-sheaves-regression&stop=0`);
    await lp.waitForFunction(() => window.__slubvizLessons && window.__slubviz?.state().status === 'ready', null, { timeout: 120_000 });
    await lp.evaluate(() => window.__slubvizLessons.idle());
    switches.push(await timeSwitch(lp, 'lesson', 'v619'));
    await lp.context().close();
  }
  const lessonSwitch = median(switches);
  results.lesson_variant_switch_ms = lessonSwitch.median;
  log(`lesson 06 variant switch (base -> v6-19) ${Math.round(lessonSwitch.median)} ms (median of 3: ${lessonSwitch.sorted.map(Math.round).join(', ')})`);
} finally {
  await browser?.close();
  server.kill();
}
const b = results.bundle;
log(`web bundle: main JS ${(b.main_js_bytes / 1024).toFixed(1)} KiB, gzipped ${(b.main_js_gzip_bytes / 1024).toFixed(1)} KiB; all JS ${(b.js_bytes / 1024).toFixed(1)} KiB, gzipped ${(b.js_gzip_bytes / 1024).toFixed(1)} KiB`);
log(`  wasm ${(b.wasm_bytes / 1024).toFixed(1)} KiB, gzipped ${(b.wasm_gzip_bytes / 1024).toFixed(1)} KiB (+ glue ${(b.wasm_glue_gzip_bytes / 1024).toFixed(1)} KiB gzipped); ` +
  `after the first screen ${(b.wasm_deferred_bytes / 1024).toFixed(1)} KiB, gzipped ${(b.wasm_deferred_gzip_bytes / 1024).toFixed(1)} KiB`);
if (json) console.log(JSON.stringify(results));
