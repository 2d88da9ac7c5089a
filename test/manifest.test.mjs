// The manifest (svz_manifest_json, core/src/api/manifest.c) is the one source of
// the names the outside world uses: it equals what the CLI prints and what
// the parser and svz_config_set accept, native and wasm agree byte for byte,
// and the web app and the lesson checker take their lists from it instead
// of typing them again.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT, describeRun, loadBrowserModule, runNative, runWasmCli } from './helpers.mjs';

let text;
let m;
beforeAll(() => {
  const r = runNative(['manifest']);
  expect(r.status, describeRun('slubviz manifest', r)).toBe(0);
  text = r.stdout.toString('utf8');
  m = JSON.parse(text);
});

const TMP = mkdtempSync(join(tmpdir(), 'svz-manifest-'));

/** A v1 trace of these lines, as a file the CLI can read. */
function traceFile(name, lines) {
  const p = join(TMP, `${name}.trace`);
  writeFileSync(p, ['slubviz-trace 1', ...lines].join('\n') + '\n');
  return p;
}

describe('svz_manifest_json', () => {
  test('schema 1, and every list is there', () => {
    expect(m.schema).toBe(1);
    for (const k of ['presets', 'switches', 'stats', 'node_counters', 'event_kinds', 'locations', 'kernel_functions',
      'ops', 'directives', 'import_formats', 'import_skip_reasons'])
      expect(m[k].length, k).toBeGreaterThan(0);
    expect(m.limits.trace_max_ops).toBeGreaterThan(0);
  });

  test('native slubviz manifest == the wasm CLI == the browser module, byte for byte', async () => {
    const w = runWasmCli(['manifest']);
    expect(w.status, describeRun('wasm slubviz manifest', w)).toBe(0);
    expect(w.stdout.toString('utf8')).toBe(text);
    const mod = await loadBrowserModule();
    expect(mod.UTF8ToString(mod._svz_manifest_json())).toBe(text);
    const { manifest } = await import(pathToFileURL(join(ROOT, 'core/wasm/slubviz-api.mjs')).href);
    expect(manifest(mod)).toEqual(m);
  });

  test('presets == slubviz presets (name, settings, description, default), in order', () => {
    const r = runNative(['presets']);
    expect(r.status).toBe(0);
    const lines = r.stdout.toString('utf8').trimEnd().split('\n');
    const parsed = lines.map((l) => {
      const x = /^(\S+)\s+(.*?)  # (.*?)( \(default\))?$/.exec(l);
      expect(x, l).not.toBeNull();
      return { name: x[1], settings: x[2], description: x[3], dflt: !!x[4] };
    });
    expect(parsed.map(({ name, settings, description }) => ({ name, description, settings }))).toEqual(m.presets);
    expect(parsed.filter((p) => p.dflt).map((p) => p.name)).toEqual([m.default_preset]);
    expect(m.presets.map((p) => p.name)).toContain('v7.0-17c38c88294d');
  });

  test('switches == the keys svz_config_set takes: each name and alias sets, nothing else does', () => {
    const trace = traceFile('switches', ['cache a size=64', 'c0 alloc a x']);
    const ok = (k, v) => runNative(['run', trace, '--set', `${k}=${v}`]);
    const value = (s) => (s.kind === 'bool' ? '1' : s.choices.at(-1) ?? { preset: m.default_preset, kernel: '6.19', seed: '7', possible: '4', present: '4', online: '4' }[s.name]);
    for (const s of m.switches)
      for (const k of [s.name, ...s.aliases]) {
        const r = ok(k, value(s));
        expect(r.status, describeRun(`--set ${k}`, r)).toBe(0);
      }
    // the unknown-key message lists the names, in the table's order
    const bad = ok('no_such_key', '1');
    expect(bad.status).toBe(2);
    const listed = /expected a setting \(([^)]*)\)/.exec(bad.stderr)[1].split(', ');
    expect(listed).toEqual(m.switches.map((s) => s.name));
    expect(m.switches.map((s) => s.name)).toContain('cpu_partial_free');
    // a value switch's choices are exactly the words it accepts
    for (const s of m.switches.filter((x) => x.kind === 'value' && x.choices.length))
      for (const c of s.choices) expect(ok(s.name, c).status, `${s.name}=${c}`).toBe(0);
  });

  test('stats == the SLUB_STATS items slubviz run --stats prints, per era', () => {
    const trace = traceFile('stats', ['cache a size=64', 'c0 alloc a x']);
    for (const [preset, era] of [[m.default_preset, 'sheaves'], ['v6.19', 'classic']]) {
      const r = runNative(['run', trace, '--stats', '--preset', preset]);
      expect(r.status, describeRun('run --stats', r)).toBe(0);
      // the first cache's lines up to the model's own counters (view_stats:
      // per-node lines, then fp_writes): one per SLUB_STATS item
      // (--stats alone: stdout is the stats dump, starting at its first cache)
      const block = `\n${r.stdout.toString('utf8')}`.split('\ncache ')[1].split('\n').slice(1);
      const statLines = block.slice(0, block.findIndex((l) => /^ {2}(node\d|fp_writes )/.test(l)));
      expect(statLines.length).toBeGreaterThan(0);
      const names = statLines.map((l) => /^ {2}([a-z_0-9]+) \d+/.exec(l)?.[1] ?? l);
      expect(names).toEqual(m.stats.filter((s) => s.eras.includes(era)).map((s) => s.sysfs));
    }
    // kernel enum names: upper case, one per item
    expect(new Set(m.stats.map((s) => s.item)).size).toBe(m.stats.length);
    expect(m.stats.find((s) => s.sysfs === 'alloc_cpu_sheaf').item).toBe('ALLOC_PCS');
  });

  test('ops and directives == what the v1 parser accepts', () => {
    for (const op of m.ops) {
      const r = runNative(['run', traceFile(`op-${op}`, ['cache a size=64', `c0 ${op}`])]);
      // the op is known: either it ran or its arguments are what is missing
      expect(r.stderr, op).not.toMatch(/expected an op \(/);
    }
    const unknownOp = runNative(['run', traceFile('op-unknown', ['cache a size=64', 'c0 no_such_op a x'])]);
    expect(/expected an op \(([^)]*)\)/.exec(unknownOp.stderr)[1].split(', ')).toEqual(m.ops);
    for (const d of m.directives) {
      const r = runNative(['run', traceFile(`dir-${d}`, [d])]);
      expect(r.stderr, d).not.toMatch(/expected a directive/);
    }
    const unknownDir = runNative(['run', traceFile('dir-unknown', ['no_such_directive x'])]);
    const listed = /expected a directive \(([^)]*)\)/.exec(unknownDir.stderr)[1].split(', ');
    expect([...listed].sort()).toEqual([...m.directives].sort());
  });

  test('import formats: each name and alias is accepted by slubviz import --format', () => {
    const empty = traceFile('import-empty', []);
    for (const f of m.import_formats)
      for (const n of [f.name, ...f.aliases]) {
        const r = runNative(['import', empty, '--format', n]);
        expect(r.stderr, n).not.toMatch(/unknown (trace )?format/);
      }
    const bad = runNative(['import', empty, '--format', 'no-such-format']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`(${m.import_formats.map((f) => f.name).join(', ')})`);
  });

  test('skip reasons: the import summary says each with the manifest\'s text', () => {
    const dir = join(ROOT, 'core/tests/data/ftrace');
    const seen = new Set();
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.txt'))) {
      const r = runNative(['import', join(dir, f), '-o', join(TMP, 'out.trace')]);
      for (const x of r.stderr.matchAll(/^ {2}skipped \d+ (.*) \[([a-z-]+)\]$/gm)) {
        expect(m.import_skip_reasons.find((s) => s.name === x[2])?.text, x[2]).toBe(x[1]);
        seen.add(x[2]);
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  });
});

describe('the CLI reads the same tables', () => {
  test('slubviz help lists the import formats and the setting keys of the manifest', () => {
    const r = runNative(['help']);
    const help = r.stderr.replace(/\s+/g, ' ');
    const formats = m.import_formats.map((f) => f.name).filter((n) => n !== 'auto');
    expect(help).toContain(`docs/import.md): ${formats.join(', ')} --preset`);
    expect(help).toContain(`'set'): ${m.switches.map((s) => s.name).join(', ')} --events`);
  });
});

/** Every web/src file that is not a test. */
function webSources(dir = join(ROOT, 'web/src')) {
  const out = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...webSources(p));
    else if (/\.(ts|tsx)$/.test(e) && !/\.test\.ts$/.test(e) && !p.includes('/fixtures/')) out.push(p);
  }
  return out;
}

describe('the web app and the lessons take their lists from the manifest', () => {
  test('no preset, switch or import format list is typed in web/src', () => {
    const src = webSources().map((p) => [p, readFileSync(p, 'utf8')]);
    for (const [p, s] of src) {
      expect(s, p).not.toMatch(/\b(PRESETS|SWITCHES)\s*=\s*\[/);
      // a preset name only ever comes in as data
      for (const pr of m.presets) expect(s.includes(`'${pr.name}'`), `${p} types '${pr.name}'`).toBe(false);
    }
    // nor the import panel's formats
    const traces = readFileSync(join(ROOT, 'web/src/views/Traces.tsx'), 'utf8');
    expect(traces).toMatch(/st\.importFormats\.map/);
    for (const f of m.import_formats) expect(traces.includes(`'${f.label}'`), f.label).toBe(false);
    const side = readFileSync(join(ROOT, 'web/src/views/Side.tsx'), 'utf8');
    expect(side).toMatch(/st\.presets\.map/);
    expect(side).toMatch(/st\.switches/);
  });

  test('the lesson checker\'s names are the core\'s', async () => {
    const voc = await import(pathToFileURL(join(ROOT, 'lessons/engine/vocabulary.mjs')).href);
    const v = voc.vocabularyOf(m);
    expect(v.ops).toEqual(m.ops);
    expect(v.eventRing).toBe(m.limits.event_ring);
    expect(v.nodeCounters).toEqual(m.node_counters);
    expect(v.presets).toEqual(m.presets.map((p) => p.name));
    // no list of the core's names typed in the lesson engine
    for (const f of ['lesson-format.mjs', 'predicates.mjs', 'runner.mjs', 'check.mjs']) {
      const s = readFileSync(join(ROOT, 'lessons/engine', f), 'utf8');
      expect(s, f).not.toMatch(/\b(OPS|EVENT_WINDOW_MAX|KNOWN_NODE_COUNTERS)\s*=/);
      for (const name of [...m.ops.filter((o) => o.includes('_')), ...m.node_counters, ...m.presets.map((p) => p.name)])
        expect(s.includes(`'${name}'`), `${f} types '${name}'`).toBe(false);
    }
  });
});
