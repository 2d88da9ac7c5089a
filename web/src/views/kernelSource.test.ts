// Call-path links to elixir.bootlin.com (kernelSource.ts), on the core's own
// presets (the manifest, core/src/model/presets.def): a preset whose name is
// a release tag links to that tag (v6.19, v7.0-rc1: the more precise one);
// the others to their kernel= release (v7.0+fix1+fix2: kernel=7.0).
import { beforeAll, describe, expect, test } from 'vitest';
import { manifest, type Manifest } from '../../../core/wasm/slubviz-api';
import { loadModule } from '../engine/testing';
import { kernelTag, sourceLinks } from './kernelSource';

let man: Manifest;
beforeAll(async () => {
  man = manifest(await loadModule());
});
const preset = (name: string) => man.presets.find((p) => p.name === name);

describe('kernelTag', () => {
  test('from the preset name when it is a tag, else the kernel= setting', () => {
    expect(kernelTag(preset('v6.19'))).toBe('v6.19');
    expect(kernelTag(preset('v7.0-rc1'))).toBe('v7.0-rc1');
    expect(kernelTag(preset('v7.0+fix1+fix2'))).toBe('v7.0');
    expect(kernelTag(preset('v7.0-rc2+fix1'))).toBe('v7.0');
    // every preset names a release one way or the other
    for (const p of man.presets) expect(kernelTag(p), p.name).toMatch(/^v\d+\.\d+(-rc\d+)?$/);
    expect(kernelTag({ name: 'custom', description: '', settings: 'era=classic' })).toBeNull();
    expect(kernelTag(undefined)).toBeNull();
  });
});

describe('sourceLinks', () => {
  test('mm/slub.c of the tag and the identifier search', () => {
    expect(sourceLinks('v6.19', '___slab_alloc')).toEqual({
      file: 'https://elixir.bootlin.com/linux/v6.19/source/mm/slub.c',
      ident: 'https://elixir.bootlin.com/linux/v6.19/A/ident/___slab_alloc',
    });
  });
});
