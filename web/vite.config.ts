// Vite config for the slubviz web app (root: web/).
// The wasm module (build-wasm/slubviz_core.{mjs,wasm,deferred.wasm}), the scenarios
// (scenarios/*.trace + a generated index.json) and the sample kernel traces
// of the import menu (core/tests/data/ftrace/*.{txt,rep} + index.json) and
// the lessons (lessons/index.json, lessons/<id>/lesson[.<lang>].{json,md}) are
// copied into web/public/ (git-ignored) whenever Vite starts (dev, build,
// preview), so the app loads them as static files. The build gzips its
// assets once, beside themselves, and preview sends those (precompressed.ts).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { precompressed } from './precompressed';

const WEB = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(WEB, '..');

function describe(text: string): string {
  const lines: string[] = [];
  for (const l of text.split('\n')) {
    if (!l.startsWith('#')) break;
    lines.push(l.replace(/^# ?/, ''));
  }
  return lines.join(' ');
}

export function copyAssets(): void {
  const pub = join(WEB, 'public');
  mkdirSync(join(pub, 'wasm'), { recursive: true });
  mkdirSync(join(pub, 'scenarios'), { recursive: true });
  for (const f of ['slubviz_core.mjs', 'slubviz_core.wasm', 'slubviz_core.deferred.wasm']) {
    const src = join(ROOT, 'build-wasm', f);
    if (!existsSync(src)) throw new Error(`${src} missing: run scripts/build.sh wasm`);
    copyFileSync(src, join(pub, 'wasm', f));
  }
  const dir = join(ROOT, 'scenarios');
  const list = readdirSync(dir).filter((f) => f.endsWith('.trace')).sort();
  const index = list.map((f) => {
    const text = readFileSync(join(dir, f), 'utf8');
    copyFileSync(join(dir, f), join(pub, 'scenarios', f));
    return { id: f.replace(/\.trace$/, ''), file: f, description: describe(text) };
  });
  writeFileSync(join(pub, 'scenarios', 'index.json'), JSON.stringify(index, null, 1) + '\n');

  const sdir = join(ROOT, 'core/tests/data/ftrace');
  mkdirSync(join(pub, 'samples'), { recursive: true });
  const samples = readdirSync(sdir).filter((f) => /\.(txt|rep)$/.test(f)).sort();
  const sindex = samples.map((f) => {
    const text = readFileSync(join(sdir, f), 'utf8');
    copyFileSync(join(sdir, f), join(pub, 'samples', f));
    return { file: f, description: describe(text).slice(0, 300), bytes: Buffer.byteLength(text) };
  });
  writeFileSync(join(pub, 'samples', 'index.json'), JSON.stringify(sindex, null, 1) + '\n');

  // the lessons (docs/lessons.md): index.json, sources.json and each lesson's lesson.json + lesson.md
  const ldir = join(ROOT, 'lessons');
  const lpub = join(pub, 'lessons');
  rmSync(lpub, { recursive: true, force: true });
  mkdirSync(lpub, { recursive: true });
  for (const f of ['index.json', 'sources.json']) copyFileSync(join(ldir, f), join(lpub, f));
  for (const id of readdirSync(ldir)) {
    if (!existsSync(join(ldir, id, 'lesson.json'))) continue;
    mkdirSync(join(lpub, id), { recursive: true });
    // with its translations, lesson.<lang>.{json,md}
    for (const f of readdirSync(join(ldir, id))) if (/^lesson(\.[a-z]{2})?\.(json|md)$/.test(f)) copyFileSync(join(ldir, id, f), join(lpub, id, f));
  }
}

/** The Content-Security-Policy of web/index.html's meta tag (one source). */
export function contentSecurityPolicy(): string {
  const html = readFileSync(join(WEB, 'index.html'), 'utf8');
  const m = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
  if (!m) throw new Error('web/index.html: no Content-Security-Policy meta tag');
  return m[1];
}

/** The dev server injects CSS as <style> tags and talks to its HMR client
 * over a websocket: relax the policy there (build and preview keep it). */
function devPolicy(): Plugin {
  return {
    name: 'slubviz-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace(/(http-equiv="Content-Security-Policy"\s+content="[^"]*style-src 'self')/, "$1 'unsafe-inline'").replace(/connect-src 'self'/, "connect-src 'self' ws: wss:"),
  };
}

/** In the app, catalogs other than English load when first chosen: the
 * i18n module's catalogs.ts (every catalog, as the tests, the workers and
 * Node see them) becomes catalogs.lazy.ts. */
function lazyCatalogs(): Plugin {
  const i18n = join(WEB, 'src/i18n');
  return {
    name: 'slubviz-lazy-catalogs',
    enforce: 'pre',
    resolveId: (source, importer) => (source === './catalogs' && importer && dirname(importer) === i18n ? join(i18n, 'catalogs.lazy.ts') : null),
  };
}

/** The engine worker starts from an entry of its own (src/early.ts, a few
 * KB), which index.html runs as an async module script of its own (after
 * the policy's meta tag, which covers only what follows it): the worker
 * then loads and compiles the wasm while the main chunk downloads and
 * evaluates, instead of after it (issue 14, cold load). main.tsx imports
 * the same module (one instance). In dev, that import starts it. */
function earlyEntry(): Plugin {
  return {
    name: 'slubviz-early-entry',
    apply: 'build',
    config: () => ({ build: { rollupOptions: { input: { index: join(WEB, 'index.html'), early: join(WEB, 'src/early.ts') } } } }),
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const early = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.isEntry && c.name === 'early');
        if (!early) throw new Error('slubviz-early-entry: no chunk for src/early.ts');
        // async: it runs as it arrives, not after the main chunk, which comes first in the document
        return [{ tag: 'script', attrs: { type: 'module', async: true, crossorigin: true, src: `./${early.fileName}` }, injectTo: 'head' }];
      },
    },
  };
}

function slubvizAssets(): Plugin {
  return {
    name: 'slubviz-assets',
    config() {
      copyAssets();
    },
  };
}

export default defineConfig({
  root: WEB,
  base: './',
  plugins: [slubvizAssets(), devPolicy(), lazyCatalogs(), earlyEntry(), precompressed()],
  esbuild: { jsx: 'automatic' },
  worker: { format: 'es' },
  build: {
    outDir: join(WEB, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    // every browser the app supports (es2022) has <link rel=modulepreload>
    modulePreload: { polyfill: false },
    minify: 'terser',
  },
  server: { host: '127.0.0.1' },
  // the header covers the workers too (a meta tag only covers the page)
  preview: { host: '127.0.0.1', headers: { 'Content-Security-Policy': contentSecurityPolicy() } },
});
