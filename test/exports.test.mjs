// The wasm allow-list (core/wasm/exported_functions.json) is exactly the
// functions declared in the public header, plus _malloc and _free, and the
// built module exports exactly those (and no other svz_ function).
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
const list = JSON.parse(readFileSync(join(ROOT, 'core/wasm/exported_functions.json'), 'utf8'));

describe('wasm export allow-list', () => {
  test('exported_functions.json == slubviz.h functions + _malloc/_free', () => {
    const fromHeader = headerFunctions(header).map((n) => '_' + n);
    expect(fromHeader.length).toBeGreaterThan(0);
    expect([...list].sort()).toEqual([...fromHeader, '_malloc', '_free'].sort());
  });

  test('slubviz_core.wasm exports exactly the allow-list', () => {
    requireBuilt(WASM_BINARY, 'scripts/build.sh wasm');
    const m = new WebAssembly.Module(readFileSync(WASM_BINARY));
    const names = WebAssembly.Module.exports(m).map((e) => e.name);
    const api = names.filter((n) => n.startsWith('svz_') || n === 'malloc' || n === 'free');
    expect(api.sort()).toEqual(list.map((n) => n.slice(1)).sort());
  });
});
