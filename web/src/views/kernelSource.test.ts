// Call-path links to elixir.bootlin.com (kernelSource.ts). The presets'
// settings are the manifest's (core/src/model/presets.def): v6.19 has
// kernel=6.19, v7.0+fix1+fix2 kernel=7.0, v7.0-rc1 kernel=7.0 (its name is
// itself a release tag, and the more precise one).
import { describe, expect, test } from 'vitest';
import { kernelTag, sourceLinks } from './kernelSource';

const p = (name: string, settings: string) => ({ name, description: '', settings });

describe('kernelTag', () => {
  test('from the kernel= setting, or the preset name when it is a tag', () => {
    expect(kernelTag(p('v6.19', 'kernel=6.19 era=sheaves'))).toBe('v6.19');
    expect(kernelTag(p('v7.0+fix1+fix2', 'kernel=7.0 era=sheaves fix1=1 fix2=1'))).toBe('v7.0');
    expect(kernelTag(p('v7.0-rc1', 'kernel=7.0 era=sheaves'))).toBe('v7.0-rc1');
    expect(kernelTag(p('custom', 'era=classic'))).toBeNull();
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
