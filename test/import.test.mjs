// Importing real traces through the browser module (docs/import.md): every
// fixture in core/tests/data/ftrace opened with svz_open_any, and again
// through the streaming svz_import_begin/feed/end in byte chunks, replays to
// the same stats and slabinfo as the native CLI's `slubviz run FILE`; the v1
// export replays identically; junk fails with a reason and the module keeps
// working.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT, describeRun, loadBrowserModule, runNative } from './helpers.mjs';

const DATA = 'core/tests/data/ftrace';
const fixtures = readdirSync(join(ROOT, DATA)).filter((f) => !f.endsWith('.md')).sort();

let mod;
beforeAll(async () => {
  mod = await loadBrowserModule();
});

/** Calls fn with a NUL-terminated copy of str (or 0 for null) in wasm memory. */
function withC(str, fn) {
  if (str === null || str === undefined) return fn(0);
  const n = mod.lengthBytesUTF8(str) + 1;
  const p = mod._malloc(n);
  try {
    mod.stringToUTF8(str, p, n);
    return fn(p);
  } finally {
    mod._free(p);
  }
}

const str = (p) => mod.UTF8ToString(p);

function replay(h) {
  const done = mod._svz_run_all(h);
  return { done, stats: str(mod._svz_stats_text(h)), slabinfo: str(mod._svz_slabinfo(h)) };
}

/** Streams raw bytes in chunks of `size` through svz_import_*; returns the session. */
function openStreamed(bytes, size) {
  const id = withC('', (f) => mod._svz_import_begin(f));
  expect(id).toBeGreaterThan(0);
  const buf = mod._malloc(size);
  try {
    for (let o = 0; o < bytes.length; o += size) {
      const chunk = bytes.subarray(o, Math.min(o + size, bytes.length));
      mod.HEAPU8.set(chunk, buf);
      expect(mod._svz_import_feed(id, buf, chunk.length)).toBe(0);
    }
  } finally {
    mod._free(buf);
  }
  expect(mod._svz_import_lines(id)).toBeGreaterThan(0);
  return withC('', (p) => mod._svz_import_end(id, p, 0));
}

describe('import in the browser module', () => {
  test('there are fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(8);
  });

  describe.each(fixtures)('%s', (file) => {
    test('svz_open_any == native run; export and streaming replay the same', () => {
      const path = join(DATA, file);
      const text = readFileSync(join(ROOT, path), 'utf8');
      const native = runNative(['run', path, '--stats-only-raw']);
      expect(native.status, describeRun('native', native)).toBe(0);

      const h = withC(text, (t) => mod._svz_open_any(t, 0, 0));
      expect(h, str(mod._svz_last_error())).toBeGreaterThan(0);
      const summary = str(mod._svz_import_summary(h));
      expect(summary).toMatch(/^format: /);
      const json = JSON.parse(str(mod._svz_import_summary_json(h)));
      expect(json.schema).toBe(1);
      // the same summary as `slubviz import --json` (cut lines, other-event
      // kinds, CPUs seen and unknown, ctor caches included)
      const nativeJson = runNative(['import', path, '--json', '-o', '/dev/null']);
      expect(nativeJson.status, describeRun('native import', nativeJson)).toBe(0);
      expect(json).toEqual(JSON.parse(nativeJson.stderr.toString('utf8')));
      const v1 = str(mod._svz_export_v1(h));
      expect(v1).toContain('slubviz-trace 1\n');
      const a = replay(h);
      mod._svz_close(h);
      expect(a.stats).toBe(native.stdout.toString('utf8'));

      const h2 = withC(v1, (t) => mod._svz_open(t, 0, 0));
      expect(h2, str(mod._svz_last_error())).toBeGreaterThan(0);
      expect(replay(h2)).toEqual(a);
      mod._svz_close(h2);

      const h3 = openStreamed(new Uint8Array(readFileSync(join(ROOT, path))), 5);
      expect(h3, str(mod._svz_last_error())).toBeGreaterThan(0);
      expect(replay(h3)).toEqual(a);
      mod._svz_close(h3);
    });
  });

  test('real-format summaries: kmem plugin, tracer lines, trimmed, cut, BOM', () => {
    const json = (file) => {
      const text = readFileSync(join(ROOT, DATA, file), 'utf8');
      const h = withC(text, (t) => mod._svz_open_any(t, 0, 0));
      expect(h, str(mod._svz_last_error())).toBeGreaterThan(0);
      const s = JSON.parse(str(mod._svz_import_summary_json(h)));
      mod._svz_close(h);
      return s;
    };
    // trace-cmd's "(func+0xoff) " before the fields: 7 kmem events, 6 kept
    let s = json('trace-cmd-report-kmem-plugin-v6.x.txt');
    expect([s.events, s.kept, s.bad_lines]).toEqual([7, 6, 0]);
    expect(s.caches[0]).toMatchObject({ name: 'radix_tree_node', object_size: 576, ctor: true });
    s = json('ftrace-function-stacktrace-v6.x.txt');
    expect(s.other_events).toEqual({ function: 6, '<stack trace>': 1 });
    expect(s.callchain_lines).toBe(9);
    s = json('ftrace-trimmed-event-lines.txt');
    expect([s.events, s.kept, s.cpus_seen, s.notes.no_cpu]).toEqual([4, 4, '', 4]);
    s = json('ftrace-cut-in-bytes_req.txt');
    expect([s.cut_line, s.kept, s.bad_lines]).toEqual([15, 2, 1]);
    s = json('ftrace-bom-free-only.txt');
    expect([s.cpus_seen, s.bad_lines, s.skipped['free-before-trace']]).toEqual(['4', 0, 3]);
  });

  test('junk: -1 with the reason, then the module still works', () => {
    const junk = String.fromCharCode(...Array.from({ length: 200 }, (_, i) => (i * 37 + 11) & 0x7f));
    expect(withC(junk, (t) => mod._svz_open_any(t, 0, 0))).toBe(-1);
    expect(str(mod._svz_last_error())).toMatch(/^import \(auto\): no trace lines recognised/);
    expect(withC('hello\n', (t) => mod._svz_open_any(t, 0, 0))).toBe(-1);
    expect(str(mod._svz_last_error())).toMatch(/no kmem events recognised as ftrace/);
    const h = withC('svz 0 kmalloc ptr=0x10a0 bytes_req=64\n', (t) => mod._svz_open_any(t, 0, 0));
    expect(h).toBeGreaterThan(0);
    expect(mod._svz_run_all(h)).toBe(1);
    mod._svz_close(h);
  });

  test('a 200k-line generated log streams in 64 KiB chunks', () => {
    const lines = [];
    for (let i = 0; i < 100000; i++) {
      const cpu = i % 4;
      lines.push(`  bash-1200 [00${cpu}] ..... 1.${String(i).padStart(6, '0')}: kmalloc: call_site=f+0x1/0x2 ptr=00000000${(0x1000 + i).toString(16).padStart(8, '0')} bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 accounted=false`);
      lines.push(`  bash-1200 [00${cpu}] ..... 1.${String(i).padStart(6, '0')}: kfree: call_site=g+0x1/0x2 ptr=00000000${(0x1000 + i).toString(16).padStart(8, '0')}`);
    }
    const bytes = new TextEncoder().encode(lines.join('\n') + '\n');
    const h = openStreamed(bytes, 65536);
    expect(h, str(mod._svz_last_error())).toBeGreaterThan(0);
    const s = JSON.parse(str(mod._svz_import_summary_json(h)));
    expect(s.lines).toBe(200000);
    expect(s.events).toBe(200000);
    expect(s.kept).toBe(200000);
    expect(s.unpaired).toBe(0);
    expect(s.topology.cpus).toBe(4);
    expect(mod._svz_ops_total(h)).toBe(200000);
    mod._svz_close(h);
  });
});
