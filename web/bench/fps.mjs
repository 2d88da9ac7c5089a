// Frames per second while playing the 64-CPU scenario (ublk-bio256) in the
// built app (web/dist, served by vite preview), measured with
// requestAnimationFrame in the system Chromium through Playwright; and the
// bundle sizes (JS gzipped, wasm).
// Run: node web/bench/fps.mjs [--seconds N] [--speed N] [--json]
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
const SECONDS = arg('--seconds', 5);
const SPEEDS = argv.includes('--speed') ? [arg('--speed', 1000)] : [100, 10000];
const PORT = arg('--port', 4179);
const json = argv.includes('--json');

if (!existsSync(join(DIST, 'index.html'))) {
  console.error('bench: web/dist missing: run npm run web:build');
  process.exit(1);
}

function bundleSizes() {
  const assets = join(DIST, 'assets');
  let js = 0, jsGz = 0;
  for (const f of readdirSync(assets).filter((f) => f.endsWith('.js'))) {
    const b = readFileSync(join(assets, f));
    js += b.length;
    jsGz += gzipSync(b, { level: 9 }).length;
  }
  const wasmB = readFileSync(join(DIST, 'wasm/slubviz_core.wasm'));
  const glue = readFileSync(join(DIST, 'wasm/slubviz_core.mjs'));
  return {
    js_bytes: js,
    js_gzip_bytes: jsGz,
    wasm_glue_gzip_bytes: gzipSync(glue, { level: 9 }).length,
    wasm_bytes: wasmB.length,
    wasm_gzip_bytes: gzipSync(wasmB, { level: 9 }).length,
  };
}


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
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const t0 = Date.now();
  await page.goto(`${base}#s=ublk-bio256`);
  await page.waitForFunction(() => window.__slubviz?.state().status === 'ready', null, { timeout: 120_000 });
  const loadMs = Date.now() - t0;
  for (const speed of SPEEDS) {
    await page.evaluate(() => window.__slubviz.act('toStart'));
    await page.evaluate((s) => window.__slubviz.act('setSpeed', s), speed);
    const r = await page.evaluate(async (seconds) => {
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
    }, SECONDS);
    results.fps.push({ speed, ...r, load_ms: loadMs });
  }
} finally {
  await browser?.close();
  server.kill();
}
if (json) console.log(JSON.stringify(results));
else {
  const b = results.bundle;
  console.log('web bundle');
  console.log(`  JS      ${(b.js_bytes / 1024).toFixed(1)} KiB, gzipped ${(b.js_gzip_bytes / 1024).toFixed(1)} KiB`);
  console.log(`  wasm    ${(b.wasm_bytes / 1024).toFixed(1)} KiB, gzipped ${(b.wasm_gzip_bytes / 1024).toFixed(1)} KiB (+ glue ${(b.wasm_glue_gzip_bytes / 1024).toFixed(1)} KiB gzipped)`);
  for (const f of results.fps)
    console.log(
      `playing ublk-bio256 (64 CPUs) at ${f.speed} steps/s: ${f.fps.toFixed(1)} fps (p95 frame ${f.p95_frame_ms.toFixed(1)} ms, max ${f.max_frame_ms.toFixed(0)} ms), ${Math.round(f.steps_per_s)} steps/s done; page ready in ${f.load_ms} ms`,
    );
}
