// The build's assets compressed once, and the preview server sending those
// (issue 14, cold load). Vite's preview server (`npm start`, the e2e tests,
// the benches) gzips every response again, per request: on a loaded 2-core
// machine ~60 ms of its CPU per cold load (the 455 KB main chunk and the
// wasm), beside the browser's own work. The build writes NAME.gz beside
// each compressible NAME (gzip -9); the preview server sends it to a
// client that takes gzip. Anything else (no .gz, a .gz older than its file,
// a range request, a client without gzip) goes on to Vite's own
// middleware. Static hosts that serve precompressed files (nginx's
// gzip_static) use the same .gz files.
import { createReadStream, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** What is compressed, by extension: the type it is sent as. */
export const COMPRESSED_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.trace': 'text/plain',
  '.txt': 'text/plain',
  '.rep': 'text/plain',
  '.md': 'text/markdown',
};

/** Below this a file is sent as it is (gzip's header would eat the gain). */
const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** NAME.gz beside every compressible NAME under `dir`; the count written. */
export function compressTree(dir: string): number {
  let n = 0;
  for (const f of filesUnder(dir)) {
    if (!(extname(f) in COMPRESSED_TYPES)) continue;
    const bytes = readFileSync(f);
    if (bytes.length < MIN_BYTES) continue;
    writeFileSync(`${f}.gz`, gzipSync(bytes, { level: 9 }));
    n++;
  }
  return n;
}

type Next = () => void;

/** A connect middleware sending `root`'s NAME.gz for NAME, with `headers`
 * (the preview's: the security policy) on every answer. */
export function servePrecompressed(root: string, headers: Readonly<Record<string, string | number | readonly string[] | undefined>> = {}) {
  const top = resolve(root);
  return (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    const path = (req.url ?? '/').split('?')[0];
    const type = COMPRESSED_TYPES[extname(path)];
    const takesGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (!type || (req.method !== 'GET' && req.method !== 'HEAD') || req.headers.range || !takesGzip) return next();
    let file: string;
    try {
      file = join(top, decodeURIComponent(path));
    } catch {
      return next(); // a malformed escape: Vite's answer
    }
    if (!file.startsWith(top + sep)) return next();
    let gzSize: number, gzTime: number;
    try {
      const gz = statSync(`${file}.gz`);
      // a file rebuilt since its .gz was written is sent by Vite
      if (gz.mtimeMs < statSync(file).mtimeMs) return next();
      gzSize = gz.size;
      gzTime = Math.floor(gz.mtimeMs);
    } catch {
      return next();
    }
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(k, v);
    const etag = `W/"gz-${gzSize}-${gzTime}"`;
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', 'no-cache'); // as Vite's: revalidated on every load
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', gzSize);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(`${file}.gz`)
      .on('error', () => res.destroy())
      .pipe(res);
  };
}

/** The Vite plugin: compress after the build, serve in preview. */
export function precompressed(): Plugin {
  let outDir = '';
  return {
    name: 'slubviz-precompressed',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      if (existsSync(outDir)) compressTree(outDir);
    },
    configurePreviewServer(server) {
      const { root, build, preview } = server.config;
      // before Vite's compression middleware (added after this hook)
      server.middlewares.use(servePrecompressed(resolve(root, build.outDir), preview.headers ?? {}));
    },
  };
}
