// The guard: no English words left in the JSX of the views and the lesson
// player. It lists the JSX text of every .tsx file (text between a tag's
// ">" and the next "<" or "{", outside comments) and the string literals of
// user-visible attributes (aria-label, title, placeholder, alt) that hold a
// word; kernel names, units and symbols are allowed (the same in every
// language). A heuristic scan (TypeScript 7 has no JS parser API here):
// code between a generic's ">" and a "<" always has "=" or ";", skipped.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
const SRC = join(__dirname, '..');
const DIRS = ['views', 'lessons', 'i18n'];
const ATTRS = new Set(['aria-label', 'title', 'placeholder', 'alt']);
// a kernel or trace name (snake_case, a function call, a path, a flag, a
// SLUB term every language keeps), an abbreviation or a unit
const ALLOWED = /^(?:slab|sheaf|barn|main|spare|freelist|ops|allocs|[A-Za-z0-9_]*_[A-Za-z0-9_]*|[a-z_]+\(\)|\/[\w/.<>-]*|[A-Z0-9]{1,6}|CPU|op|B|KiB|MiB|N|slubviz|gfp=…|fix1=1 fix2=1|cpu|Space)$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.tsx') ? [p] : [];
  });
}

/** The English words of a file's JSX, with their lines. */
function englishIn(path: string, source = readFileSync(path, 'utf8')): string[] {
  // comments and <code> (kernel names) out, keeping line breaks
  const text = source.replace(/<code>[^<]*<\/code>/g, '<code></code>').replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1');
  const out: string[] = [];
  const words = (s: string) => s.split(/[\s,;:·()[\]{}|→←▶◀…'"“”✓✗○★×.!?+/=#%&-]+/).filter((w) => /[A-Za-z]{2,}/.test(w) && !ALLOWED.test(w));
  const note = (at: number, s: string) => {
    const bad = words(s.replace(/&[a-z]+;/g, ' '));
    if (bad.length) out.push(`${relative(SRC, path)}:${text.slice(0, at).split('\n').length}: ${bad.join(' ')}`);
  };
  // a tag's end: not "=>", "->" or a comparison's " > "
  for (const m of text.matchAll(/(?<![=\s-])>([^<>{}]*)(?=[<{])/g)) if (!/[=;]/.test(m[1])) note(m.index, m[1]);
  for (const m of text.matchAll(/\s([a-z-]+)="([^"]*)"/g)) if (ATTRS.has(m[1]) && !ALLOWED.test(m[2])) note(m.index, m[2]);
  return out;
}

describe('no English UI text outside the catalogs', () => {
  const all = DIRS.flatMap((d) => files(join(SRC, d)));

  test('the guard sees English where there is some', () => {
    expect(all.length).toBeGreaterThan(20);
    const probe = '<p className="x">\n  Hello world <code>list_lock</code></p>; <b title="Close it">{t(\'k\')}</b>; useState<A | null>(null); const x = 1;';
    expect(englishIn(join(SRC, 'probe.tsx'), probe)).toEqual(['probe.tsx:1: Hello world', 'probe.tsx:2: Close it']);
  });

  test('views and the lesson player speak through t()', () => {
    const found = all.flatMap((p) => englishIn(p));
    expect(found).toEqual([]);
  });
});
