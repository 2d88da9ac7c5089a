// The wasm allow-list (core/wasm/exported_functions.json) is exactly the
// functions declared in the public header, plus _malloc and _free and the
// page helpers defined in core/wasm/module.c (svz_heap_used, the test-only
// svz_debug_trap), and the built module exports exactly those (and no other
// svz_ function).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { SlubvizSession } from '../core/wasm/slubviz-api.mjs';
import { ROOT, WASM_BINARY, loadBrowserModule, requireBuilt, runNative } from './helpers.mjs';

function headerFunctions(text) {
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/.*$/gm, ' ')
    .replace(/^\s*#.*$/gm, ' ');
  return [...new Set([...code.matchAll(/\b(svz_\w+)\s*\(/g)].map((m) => m[1]))];
}

const header = readFileSync(join(ROOT, 'core/include/slubviz/slubviz.h'), 'utf8');
const moduleHelpers = [...readFileSync(join(ROOT, 'core/wasm/module.c'), 'utf8').matchAll(/^\w[\w ]*\b(svz_\w+)\s*\([^;]*$/gm)].map((m) => m[1]);
const list = JSON.parse(readFileSync(join(ROOT, 'core/wasm/exported_functions.json'), 'utf8'));

describe('wasm export allow-list', () => {
  test('exported_functions.json == slubviz.h functions + _malloc/_free + module.c helpers', () => {
    const fromHeader = headerFunctions(header).map((n) => '_' + n);
    expect(fromHeader.length).toBeGreaterThan(0);
    const helpers = [...new Set(moduleHelpers)].map((n) => '_' + n);
    expect([...list].sort()).toEqual([...fromHeader, '_malloc', '_free', ...helpers].sort());
  });

  test('slubviz_core.wasm exports exactly the allow-list', () => {
    requireBuilt(WASM_BINARY, 'scripts/build.sh wasm');
    const m = new WebAssembly.Module(readFileSync(WASM_BINARY));
    const names = WebAssembly.Module.exports(m).map((e) => e.name);
    const api = names.filter((n) => n.startsWith('svz_') || n === 'malloc' || n === 'free');
    expect(api.sort()).toEqual(list.map((n) => n.slice(1)).sort());
  });
});

// svz_profile_text() is what `slubviz run --profile` prints (the CLI prints
// through it) and svz_profile_json() reads the same figures: every line of
// the text's profile is a function line of the JSON, with the same cycles,
// in the same order, and the work cycles of a trace's `work` ops are
// exactly what the trace says.
describe('the timed profile through the C API', () => {
  const TIMED = join(ROOT, 'scenarios/lesson-06-timed.trace');
  let mod;
  beforeAll(async () => {
    mod = await loadBrowserModule();
  });

  test('text == the CLI\'s --profile output; JSON == the text, line by line', () => {
    const cli = runNative(['run', TIMED, '--preset', 'v7.0-rc1', '--profile']);
    expect(cli.status, cli.stderr).toBe(0);
    const s = SlubvizSession.open(mod, readFileSync(TIMED, 'utf8'), { preset: 'v7.0-rc1' });
    try {
      s.runAll();
      const text = s.profileText();
      expect(text).toMatch(/^# profile: /);
      const out = cli.stdout.toString('utf8');
      expect(out.slice(out.indexOf('# profile: '))).toBe(text);
      const p = s.profile();
      expect(p.schema).toBe(1);
      expect(p.timed).toBe(true);
      const lines = [...text.matchAll(/^ +[\d.]+% +(\d+) +(\S+?)(?:: spin on (\S+))?$/gm)]
        .map((m) => ({ fn: m[2], ...(m[3] ? { spin_on: m[3] } : {}), cycles: Number(m[1]) }));
      expect(lines.length).toBeGreaterThan(3);
      expect(p.functions.map(({ fn, spin_on, cycles }) => ({ fn, ...(spin_on ? { spin_on } : {}), cycles }))).toEqual(lines);
      const work = Number(/other work \('work' ops\): [\d.]+%, (\d+) cycles/.exec(text)[1]);
      expect(p.work_cycles).toBe(work);
      const moved = Number(/objects' cache lines moving to the CPU that uses them: [\d.]+%, (\d+) cycles/.exec(text)[1]);
      expect(p.object_lines_cycles).toBe(moved);
      expect(p.cycles_total).toBe(work + moved + lines.reduce((a, l) => a + l.cycles, 0));
      expect(p.throughput_mops.toFixed(3)).toBe(/throughput mops=([\d.]+)/.exec(text)[1]);
      expect((100 * p.spin_share).toFixed(1)).toBe(/spin share ([\d.]+)%/.exec(text)[1]);
      const locks = [...text.matchAll(/^(\w+) node (\d+): acquisitions=(\d+) contended=(\d+) wait_total=(\d+) wait_max=(\d+)$/gm)]
        .map((m) => ({ lock: m[1], node: +m[2], acquisitions: +m[3], contended: +m[4], wait_total: +m[5], wait_max: +m[6] }));
      expect(locks.length).toBeGreaterThan(0);
      expect(p.locks).toEqual(locks);
      expect(p.cpus.length).toBe([...text.matchAll(/^cpu \d+: busy=/gm)].length);
    } finally {
      s.close();
    }
  });

  test('work cycles as the trace gives them; an untimed run has no profile', () => {
    const trace = 'slubviz-trace 1\nnode 0 mem=64M\ncpus 0-1 node=0\npreset v7.0+fix1+fix2\nschedule timed\n'
      + 'cache c size=64\nc0 alloc c a\nc0 work 1000\nc1 work 500\nc0 free c a\n';
    const s = SlubvizSession.open(mod, trace, {});
    try {
      s.runAll();
      const p = s.profile();
      expect(p.work_cycles).toBe(1500); // 1000 + 500, the trace's work ops
      expect(p.functions.length).toBeGreaterThan(0);
    } finally {
      s.close();
    }
    const u = SlubvizSession.open(mod, trace, { sets: { schedule: 'serial' } });
    try {
      u.runAll();
      expect(u.profileJson()).toBe('{"schema":1,"timed":false}');
      expect(u.profileText()).toMatch(/only a timed run has one/);
    } finally {
      u.close();
    }
  });
});
