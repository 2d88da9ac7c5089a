// web/precompressed.ts: the build's NAME.gz files, and the preview
// middleware that sends them (else hands the request on to Vite's).
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { request, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressTree, servePrecompressed } from '../web/precompressed.ts';

let dir, server, port;
const big = 'let x = 1;\n'.repeat(400); // 4400 bytes: compressed
const POLICY = "default-src 'self'";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svz-gz-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, 'wasm'));
  writeFileSync(join(dir, 'assets/app.js'), big);
  writeFileSync(join(dir, 'assets/tiny.js'), 'x()'); // under 1 KB: left alone
  writeFileSync(join(dir, 'assets/stale.js'), big);
  writeFileSync(join(dir, 'wasm/core.wasm'), Buffer.alloc(5000, 7));
  writeFileSync(join(dir, 'assets/photo.png'), Buffer.alloc(5000, 1)); // not a compressed type
  expect(compressTree(dir)).toBe(3); // app.js, stale.js, core.wasm
  // stale.js rebuilt after its .gz was written
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(dir, 'assets/stale.js'), later, later);
  const mw = servePrecompressed(dir, { 'Content-Security-Policy': POLICY });
  server = createServer((req, res) =>
    mw(req, res, () => {
      res.setHeader('X-Fallback', '1');
      res.end('fallback');
    }),
  );
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  port = server.address().port;
});

afterAll(() => {
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The raw answer: status, headers, body bytes (not decompressed). */
function get(path, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('precompressed assets', () => {
  it('writes NAME.gz for compressible files of 1 KB or more only', () => {
    expect(gunzipSync(readFileSync(join(dir, 'assets/app.js.gz'))).toString()).toBe(big);
    expect(existsSync(join(dir, 'assets/tiny.js.gz'))).toBe(false);
    expect(existsSync(join(dir, 'assets/photo.png.gz'))).toBe(false);
  });

  it('sends the .gz with its type, the policy and a validator', async () => {
    const r = await get('/assets/app.js?v=1', { 'accept-encoding': 'gzip, deflate' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers['content-type']).toBe('text/javascript');
    expect(r.headers['content-security-policy']).toBe(POLICY);
    expect(r.headers.vary).toBe('Accept-Encoding');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(gunzipSync(r.body).toString()).toBe(big);
    const w = await get('/wasm/core.wasm', { 'accept-encoding': 'gzip' });
    expect(w.headers['content-type']).toBe('application/wasm');
    expect(gunzipSync(w.body).equals(Buffer.alloc(5000, 7))).toBe(true);
  });

  it('answers a revalidation with its ETag by 304, and HEAD without a body', async () => {
    const first = await get('/assets/app.js', { 'accept-encoding': 'gzip' });
    const again = await get('/assets/app.js', { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get('/assets/app.js', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('hands on what it does not send: no gzip, a range, no .gz, a stale .gz, other methods, paths outside', async () => {
    const cases = [
      ['/assets/app.js', {}],
      ['/assets/app.js', { 'accept-encoding': 'br' }],
      ['/assets/app.js', { 'accept-encoding': 'gzip', range: 'bytes=0-9' }],
      ['/assets/tiny.js', { 'accept-encoding': 'gzip' }],
      ['/assets/stale.js', { 'accept-encoding': 'gzip' }],
      ['/assets/photo.png', { 'accept-encoding': 'gzip' }],
      ['/assets/missing.js', { 'accept-encoding': 'gzip' }],
      ['/assets/..%2f..%2fetc%2fpasswd.js', { 'accept-encoding': 'gzip' }],
      ['/assets/%E0%A4%A.js', { 'accept-encoding': 'gzip' }],
    ];
    for (const [path, headers] of cases) {
      const r = await get(path, headers);
      expect(r.headers['x-fallback'], path).toBe('1');
      expect(r.headers['content-encoding'], path).toBeUndefined();
    }
    const post = await get('/assets/app.js', { 'accept-encoding': 'gzip' }, 'POST');
    expect(post.headers['x-fallback']).toBe('1');
  });
});
