// The wasm allow-list (core/wasm/exported_functions.json) is exactly the
// functions declared in the public header, plus _malloc and _free and the
// page helpers defined in core/wasm/module.c (svz_heap_used, the test-only
// svz_debug_trap), and the built module exports exactly those (and no other
// svz_ function).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, WASM_BINARY, requireBuilt } from './helpers.mjs';

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
