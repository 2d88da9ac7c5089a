// One panel per file under views/panels/, and every view a lesson stop may
// focus (lesson-format.mjs VIEWS) is a panel the app draws.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { lessonFormat } from '../../lessons/format';
import { panelOf } from '../../lessons/highlight';

const DIR = dirname(fileURLToPath(import.meta.url));
const WEB = join(DIR, '../..');
const read = (p: string) => readFileSync(p, 'utf8');
const files = readdirSync(DIR).filter((f) => f.endsWith('.tsx'));

/** data-panel ids set in a source: <Panel id="X"> (on one line or over
 * several) and data-panel="X" */
function ids(src: string): string[] {
  const found = [...src.matchAll(/<Panel\b[^>]*?\bid="([a-z-]+)"|^\s+id="([a-z-]+)"$|data-panel="([a-z-]+)"/gm)].map((m) => m[1] ?? m[2] ?? m[3]);
  return [...new Set(found)];
}

describe('panels (views/panels/)', () => {
  test('one panel per file', () => {
    for (const f of files.filter((x) => x !== 'Panel.tsx')) {
      const src = read(join(DIR, f));
      expect(ids(src), f).toHaveLength(1);
      expect(src.match(/^export function \w+/gm), f).toHaveLength(1);
    }
  });

  test('every view a lesson may focus is drawn by a panel', () => {
    const drawn = new Set(files.flatMap((f) => ids(read(join(DIR, f)))));
    for (const f of ['views/Side.tsx', 'views/Traces.tsx', 'lessons/LessonsView.tsx']) for (const id of ids(read(join(WEB, f)))) drawn.add(id);
    for (const v of lessonFormat.VIEWS) expect(drawn.has(panelOf(v)), `${v} -> ${panelOf(v)}`).toBe(true);
  });
});
