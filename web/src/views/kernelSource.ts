// Links from the call path's kernel function names to the kernel source of
// the preset's version on elixir.bootlin.com: the tag comes from the
// preset's `kernel=` setting in the core's manifest (a preset named like a
// release tag, e.g. v7.0-rc1, is that tag).
import type { ManifestPreset } from '../engine/types';

const ELIXIR = 'https://elixir.bootlin.com/linux';

/** The elixir tag of a preset ("v6.19", "v7.0-rc1"), null if it names no kernel version. */
export function kernelTag(preset: ManifestPreset | undefined): string | null {
  if (!preset) return null;
  if (/^v\d+\.\d+(-rc\d+)?$/.test(preset.name)) return preset.name;
  const m = /(?:^|\s)kernel=(\d+\.\d+)(?:\s|$)/.exec(preset.settings);
  return m ? `v${m[1]}` : null;
}

/** mm/slub.c of that version, and the identifier search of a function in it. */
export function sourceLinks(tag: string, fn: string): { file: string; ident: string } {
  return {
    file: `${ELIXIR}/${tag}/source/mm/slub.c`,
    ident: `${ELIXIR}/${tag}/A/ident/${encodeURIComponent(fn)}`,
  };
}
