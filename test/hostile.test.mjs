// Hostile inputs (core/tests/data/hostile.tsv, the list test_hostile.c runs
// natively under ASan): the CLI compiled to wasm behaves byte for byte like
// the native one on every case (stdout, stderr, exit status 2) for `run` and
// `import`, and the browser module's entry points (svz_open, svz_open_any,
// the streaming import) report what `slubviz run` reports.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SlubvizError, SlubvizImport } from '../core/wasm/slubviz-api.mjs';
import {
  NATIVE_CLI, ROOT, WASM_CLI, describeRun, loadBrowserModule, requireBuilt,
} from './helpers.mjs';

/** The table's rows: {name, kind, args, spec, expect}. */
export function readHostileTable() {
  return readFileSync(join(ROOT, 'core/tests/data/hostile.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [name, kind, args, spec, expect, ...rest] = l.split('\t');
      if (expect === undefined || rest.length) throw new Error(`hostile.tsv: expected 5 columns: ${l}`);
      return { name, kind, args: args === '-' ? [] : args.split(' '), spec, expect };
    });
}

// Escapes as in test_hostile.c: \n \r \t \xHH, \c -> c; \# -> index (in a generator).
function unescape(s, index) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\' || i + 1 >= s.length) {
      out.push(Buffer.from(c, 'latin1'));
      continue;
    }
    const e = s[++i];
    const hex = /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3));
    if (e === 'x' && hex && i + 2 < s.length) {
      out.push(Buffer.from([parseInt(s.slice(i + 1, i + 3), 16)]));
      i += 2;
    } else if (e === '#' && index >= 0) {
      out.push(Buffer.from(String(index)));
    } else {
      out.push(Buffer.from({ n: '\n', r: '\r', t: '\t' }[e] ?? e, 'latin1'));
    }
  }
  return Buffer.concat(out);
}

/** The input column -> bytes; \*N:TEXT\* repeats TEXT N times. */
export function decodeInput(spec) {
  const parts = [];
  let s = spec;
  for (;;) {
    const g = s.indexOf('\\*');
    if (g < 0) {
      parts.push(unescape(s, -1));
      return Buffer.concat(parts);
    }
    parts.push(unescape(s.slice(0, g), -1));
    const m = /^(\d+):/.exec(s.slice(g + 2));
    const end = m ? s.indexOf('\\*', g + 2 + m[0].length) : -1;
    if (!m || end < 0) throw new Error(`hostile.tsv: bad generator at '${s.slice(g, g + 20)}'`);
    const n = Number(m[1]);
    const text = s.slice(g + 2 + m[0].length, end);
    if (text.includes('\\#')) {
      for (let i = 0; i < n; i++) parts.push(unescape(text, i));
    } else {
      const piece = unescape(text, -1);
      parts.push(n && piece.length ? Buffer.alloc(n * piece.length, piece) : Buffer.alloc(0));
    }
    s = s.slice(end + 2);
  }
}

const cases = readHostileTable();
const KINDS = ['parse', 'runtime', 'args', 'input'];
// "(auto): MSG" of the CLI's "slubviz run: cannot import 'F' (auto): MSG" and
// the module's "import (auto): MSG"
const importMsg = (s) => (s.indexOf(' (') >= 0 ? s.slice(s.indexOf(' (') + 1) : s);
const firstLine = (s) => s.split('\n')[0];

let dir;
let mod;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svz-hostile-'));
  mod = await loadBrowserModule();
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Asynchronous, so native and wasm run side by side and the test runner's
// own messages are not held up behind a blocked event loop.
function runAsync(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({
      status, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'),
    }));
  });
}

function cString(str) {
  const n = mod.lengthBytesUTF8(str) + 1;
  const p = mod._malloc(n);
  mod.stringToUTF8(str, p, n);
  return p;
}

/** svz_open / svz_open_any on raw bytes (a C string: a NUL ends it). */
function openRaw(fn, bytes, preset, sets) {
  const t = mod._malloc(bytes.length + 1);
  mod.HEAPU8.set(bytes, t);
  mod.HEAPU8[t + bytes.length] = 0;
  const p = cString(preset ?? '');
  const s = sets ? cString(sets) : 0;
  try {
    const h = fn(t, p, s);
    return { h, err: h > 0 ? '' : mod.UTF8ToString(mod._svz_last_error()) };
  } finally {
    mod._free(t);
    mod._free(p);
    if (s) mod._free(s);
  }
}

/** The streaming import in 4 KiB chunks (lines straddle them). */
function openStreaming(bytes, preset, sets) {
  const imp = new SlubvizImport(mod);
  for (let o = 0; o < bytes.length; o += 4096) imp.feed(bytes.subarray(o, o + 4096));
  try {
    const s = imp.end({ preset, sets });
    return { h: s.h, err: '' };
  } catch (e) {
    if (!(e instanceof SlubvizError)) throw e;
    return { h: -1, err: e.message };
  }
}

describe('hostile inputs: native CLI = wasm CLI = module API', () => {
  test('the table has at least 100 cases of known kinds, distinct names', () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    expect(new Set(cases.map((c) => c.spec + c.args.join(' '))).size, 'distinct inputs').toBe(cases.length);
    for (const c of cases) expect(KINDS, c.name).toContain(c.kind);
  });

  test.each(cases)('$name ($kind)', async ({ name, kind, args, spec, expect: want }) => {
    requireBuilt(NATIVE_CLI, 'scripts/build.sh native');
    requireBuilt(WASM_CLI, 'scripts/build.sh wasm');
    const bytes = decodeInput(spec);
    const file = join(dir, `${name}.trace`);
    writeFileSync(file, bytes);
    const expected = want.replace('FILE', file);

    // `import` of v1 is the parse of `run` (test_hostile.c compares the two
    // natively, and the streaming import below is the same code in wasm):
    // the wasm CLI runs it for the inputs that are not v1
    const cmds = [['run', file, ...args]];
    if (kind === 'parse' || kind === 'input') cmds.push(['import', file]);
    let runFirst;
    for (const argv of cmds) {
      const wasmToo = argv[0] === 'run' || kind === 'input';
      const [native, wasm] = await Promise.all([
        runAsync(NATIVE_CLI, argv),
        wasmToo ? runAsync(process.execPath, [WASM_CLI, ...argv]) : null,
      ]);
      if (!wasm) {
        expect(native.status, describeRun('native', native)).toBe(2);
        expect(firstLine(native.stderr)).toBe(runFirst);
        continue;
      }
      const both = `${describeRun('native', native)}\n${describeRun('wasm', wasm)}`;
      expect(native.signal, both).toBeNull();
      expect(wasm.signal, both).toBeNull();
      expect(native.status, both).toBe(2);
      expect(wasm.status, both).toBe(2);
      expect(wasm.stderr, both).toBe(native.stderr);
      expect(Buffer.compare(wasm.stdout, native.stdout), both).toBe(0);
      if (argv[0] === 'run') {
        runFirst = firstLine(native.stderr);
        expect(runFirst).toBe(expected);
      } else if (kind === 'parse') {
        expect(firstLine(native.stderr)).toBe(runFirst);
      } else {
        expect(importMsg(firstLine(native.stderr))).toBe(importMsg(runFirst));
      }
    }

    let preset = '';
    const sets = [];
    for (let i = 0; i < args.length; i += 2) {
      if (args[i] === '--preset') preset = args[i + 1];
      else if (args[i] === '--set') sets.push(args[i + 1]);
    }
    const setsText = sets.length ? sets.join('\n') + '\n' : null;
    const entries = [['streaming', () => openStreaming(bytes, preset, setsText)]];
    // svz_open/svz_open_any take a C string: with a NUL only the stream sees it all
    if (!bytes.includes(0)) {
      entries.push(['svz_open', () => openRaw(mod._svz_open, bytes, preset, setsText)]);
      entries.push(['svz_open_any', () => openRaw(mod._svz_open_any, bytes, preset, setsText)]);
    }
    for (const [ep, open] of entries) {
      const { h, err } = open();
      try {
        if (kind === 'runtime') {
          expect(h, `${ep}: ${err}`).toBeGreaterThan(0);
          expect(mod._svz_run_all(h), ep).toBe(-1);
        } else if (kind === 'input' && ep === 'svz_open') {
          expect(h, ep).toBe(-1); // v1 only: its own "expected the header" error
        } else if (kind === 'input') {
          expect(h, ep).toBe(-1);
          expect(importMsg(err), ep).toBe(importMsg(expected));
        } else {
          expect(h, ep).toBe(-1);
          // the C API has no file name: it names the text "trace"
          expect(err, ep).toBe(want.replace('FILE', 'trace'));
        }
      } finally {
        if (h > 0) mod._svz_close(h);
      }
    }
  });
});
