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
    // the parser's messages list the names from the same tables, in order
    const unknownDir = runNative(['run', traceFile('dir-unknown', ['no_such_directive x'])]);
    const listed = /expected a directive \(([^)]*)\)/.exec(unknownDir.stderr)[1].split(', ');
    expect(listed).toEqual(m.directives);
    // and docs/trace-format.md's directive table documents them in that order
    const doc = readFileSync(join(ROOT, 'docs/trace-format.md'), 'utf8');
    const table = doc.split('| directive | meaning |')[1].split('\n\n')[0];
    expect([...table.matchAll(/^\| `([a-z_]+)/gm)].map((x) => x[1])).toEqual(m.directives);
  });

  test('limits == what the v1 parser enforces', () => {
    const err = (name, lines) => runNative(['run', traceFile(name, lines)]).stderr;
    const { max_cpus, max_nodes, trace_max_line, trace_max_caches } = m.limits;
    expect(err('lim-line', ['#' + 'x'.repeat(trace_max_line)]))
      .toContain(`expected lines of at most ${trace_max_line} bytes`);
    // one byte under the limit is a line like any other
    expect(err('lim-line-ok', ['#' + 'x'.repeat(trace_max_line - 1)])).not.toMatch(/expected lines/);
    expect(err('lim-node', [`node ${max_nodes} mem=1G`])).toContain(`expected a node id 0..${max_nodes - 1}, got '${max_nodes}'`);
    expect(err('lim-cpu', ['node 0 mem=1G', `cpus 0-${max_cpus} node=0`])).toContain(`expected CPU ids 0..${max_cpus - 1}`);
    expect(err('lim-cpu-ok', ['node 0 mem=1G', `cpus 0-${max_cpus - 1} node=0`])).not.toMatch(/expected CPU ids/);
    const caches = Array.from({ length: trace_max_caches + 1 }, (_, i) => `cache c${i} size=64`);
    expect(err('lim-caches', caches)).toContain(`expected at most ${trace_max_caches} caches`);
    expect(err('lim-caches-ok', caches.slice(0, -1))).not.toMatch(/expected at most/);
  });

  test('node counters == the node lines slubviz run --stats prints', () => {
    const r = runNative(['run', traceFile('node-counters', ['cache a size=64', 'c0 alloc a x']), '--stats']);
    expect(r.status, describeRun('run --stats', r)).toBe(0);
    const line = r.stdout.toString('utf8').split('\n').find((l) => /^ {2}node0 \S+=/.test(l));
    expect(line).toBeDefined();
    expect([...line.matchAll(/ ([a-z_0-9]+)=\d+/g)].map((x) => x[1])).toEqual(m.node_counters);
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

describe('the module\'s events and snapshot use only the manifest\'s names', () => {
  test.each([[null], ['v6.19']])('preset %s', async (preset) => {
    const mod = await loadBrowserModule();
    const { SlubvizSession } = await import(pathToFileURL(join(ROOT, 'core/wasm/slubviz-api.mjs')).href);
    // two nodes, four CPUs, remote frees, RCU, bulk, flush, shrink
    const trace = ['slubviz-trace 1', 'node 0 mem=1G', 'node 1 mem=1G', 'cpus 0-1 node=0', 'cpus 2-3 node=1',
      'cache a size=64', 'repeat 200 i {', '  c{$i%4} alloc a x$i', '}',
      'repeat 200 i {', '  c{($i+1)%4} free a x$i', '}', 'c0 alloc a k', 'c0 kfree_rcu k', 'c1 rcu_barrier',
      'c0 alloc_bulk a 20 b', 'c3 free_bulk a 20 b', 'c2 flush_all a', 'c1 shrink a', ''];
    const s = SlubvizSession.open(mod, trace.join('\n'), preset ? { preset } : {});
    try {
      s.setEvents(true);
      const seen = { kind: new Set(), fn: new Set(), from: new Set(), to: new Set(), stat: new Set() };
      let from = 0;
      const snaps = [];
      while (s.step() > 0) {
        if (s.seq() % 97 === 0) snaps.push(s.snapshot());
        const ev = JSON.parse(s.eventsJson(from, 1000)).events;
        for (const e of ev) for (const k of Object.keys(seen)) if (e[k] !== undefined) seen[k].add(e[k]);
        from = s.seq();
      }
      expect(s.runError()).toBe('');
      const sysfs = m.stats.map((x) => x.sysfs);
      for (const k of seen.kind) expect(m.event_kinds, 'kind').toContain(k);
      for (const f of seen.fn) expect(m.kernel_functions, 'fn').toContain(f);
      for (const l of [...seen.from, ...seen.to]) expect(m.locations, 'location').toContain(l);
      for (const st of seen.stat) expect(sysfs, 'stat').toContain(st);
      expect(seen.kind.size).toBeGreaterThan(5);
      expect(seen.stat.size).toBeGreaterThan(3);
      // the snapshot: settings by the switches' keys and words, stats and
      // counters by the manifest's names, frames by kernel function
      expect(snaps.length).toBeGreaterThan(0);
      for (const snap of snaps) {
        const sw = snap.config.switches;
        const byName = Object.fromEntries(m.switches.map((x) => [x.name, x]));
        expect(byName.era.choices).toContain(snap.config.era);
        for (const [k, v] of Object.entries(sw)) {
          expect(byName[k], `switch ${k}`).toBeDefined();
          if (byName[k].kind === 'bool') expect(typeof v).toBe('boolean');
          else if (byName[k].choices.length) expect(byName[k].choices, k).toContain(v);
        }
        expect(Object.keys(sw).filter((k) => byName[k].kind === 'bool'))
          .toEqual(m.switches.filter((x) => x.kind === 'bool').map((x) => x.name));
        for (const c of snap.caches.filter((x) => x.alive)) {
          expect(Object.keys(c.stats)).toEqual(sysfs);
          for (const n of c.nodes) expect(Object.keys(n.counters)).toEqual(m.node_counters);
        }
        for (const cpu of snap.cpus) for (const f of cpu.frames) expect(m.kernel_functions).toContain(f);
      }
    } finally {
      s.close();
    }
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

/** The files under dir (recursively) whose names match `keep`. */
function sources(dir, keep) {
  const out = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...sources(p, keep));
    else if (keep.test(e) && !p.includes('/fixtures/')) out.push(p);
  }
  return out;
}

/** Every web/src file that is not a test. */
const webSources = () => sources(join(ROOT, 'web/src'), /^(?!.*\.test\.ts$).*\.(ts|tsx)$/);
/** The lesson engine and the JS binding, tests aside. */
const jsSources = () => [...sources(join(ROOT, 'lessons/engine'), /^(?!.*\.test\.).*\.mjs$/),
  ...sources(join(ROOT, 'core/wasm'), /\.(mjs|ts)$/)];

/** The array literals of quoted strings in a source text: ['a', "b", ...]. */
function stringArrays(text) {
  return [...text.matchAll(/\[\s*((?:(['"])[^'"\n]*\2\s*,\s*)+(['"])[^'"\n]*\3\s*,?\s*)\]/g)]
    .map((x) => [...x[1].matchAll(/(['"])([^'"\n]*)\1/g)].map((y) => y[2]));
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

  test('no list of the manifest\'s names is typed in web/src, lessons/engine or core/wasm', () => {
    const lists = {
      ops: m.ops, directives: m.directives, presets: m.presets.map((p) => p.name),
      switches: m.switches.map((x) => x.name), stats: m.stats.map((x) => x.sysfs),
      node_counters: m.node_counters, event_kinds: m.event_kinds, locations: m.locations,
      kernel_functions: m.kernel_functions, import_formats: m.import_formats.map((f) => f.name),
      import_skip_reasons: m.import_skip_reasons.map((r) => r.name),
    };
    // the scan finds a typed list, quoted either way, over lines
    expect(stringArrays(`const X = ['${m.ops[0]}', "${m.ops[1]}",\n '${m.ops[2]}',];`)).toEqual([m.ops.slice(0, 3)]);
    // Known, to move into the core: the lesson predicates sort locations
    // into per-node and per-CPU places, which the manifest does not say yet.
    const pending = { 'lessons/engine/predicates.mjs': ['locations'] };
    const files = [...webSources(), ...jsSources()];
    expect(files.length).toBeGreaterThan(10);
    for (const p of files)
      for (const arr of stringArrays(readFileSync(p, 'utf8')))
        for (const [name, list] of Object.entries(lists)) {
          if (pending[p.slice(ROOT.length + 1)]?.includes(name)) continue;
          // a few names picked for a purpose are fine; five of one table
          // (or a whole short one) in one array are a copy of it
          const typed = arr.filter((x) => list.includes(x));
          expect(typed.length >= Math.min(5, list.length) ? `${p} types ${name}: ${typed.join(', ')}` : '').toBe('');
        }
  });

  test('the lesson checker\'s names are the manifest\'s', async () => {
    const voc = await import(pathToFileURL(join(ROOT, 'lessons/engine/vocabulary.mjs')).href);
    const v = voc.vocabularyOf(m);
    expect(v.ops).toEqual(m.ops);
    expect(v.presets).toEqual(m.presets.map((p) => p.name));
    expect(v.settings).toEqual(m.switches.flatMap((x) => [x.name, ...x.aliases]));
    expect([...v.statEras.keys()]).toEqual(m.stats.map((x) => x.sysfs));
    expect(v.nodeCounters).toEqual(m.node_counters);
    expect(v.eventKinds).toEqual(m.event_kinds);
    expect(v.kernelFunctions).toEqual(m.kernel_functions);
    expect(v.locations).toEqual(m.locations);
    expect(v.eventRing).toBe(m.limits.event_ring);
  });
});
