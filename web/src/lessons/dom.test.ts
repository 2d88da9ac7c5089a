// @vitest-environment jsdom
// Markdown sanitizing, and the marks / clicks on drawn elements (jsdom).
import { describe, expect, test } from 'vitest';
import { clickedId, highlightSelectors, Marker } from './highlight';
import { renderInline, renderMarkdown } from './markdown';

describe('lesson Markdown', () => {
  test('renders Markdown, never raw HTML', () => {
    const html = renderMarkdown('**bold** and `code`\n\n<script>alert(1)</script><img src=x onerror=alert(1)>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<code>code</code>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
  });
  test('drops script links, keeps web links (new tab)', () => {
    expect(renderInline('[x](javascript:alert(1))')).not.toContain('href');
    const a = renderInline('[lkml](https://lore.kernel.org/)');
    expect(a).toContain('href="https://lore.kernel.org/"');
    expect(a).toContain('target="_blank"');
  });
});

function drawn(): HTMLElement {
  document.body.innerHTML = `
  <main>
    <section data-panel="partial"><svg>
      <g class="slab-list" data-node="0" data-list="partial"><g class="slab" data-slab-id="4" data-list="partial"><rect></rect></g></g>
      <g class="slab-list" data-node="-1" data-list="cpu_slab"><g class="slab" data-slab-id="5" data-list="cpu_slab"><rect></rect></g></g>
    </svg></section>
    <section data-panel="sheaves"><svg>
      <g class="cpu-row" data-cpu="1"><g class="sheaf" data-where="main" data-sheaf-id="7"><rect class="obj" data-object-id="33"></rect></g></g>
    </svg></section>
    <section data-panel="barns"><svg><g class="barn" data-barn-node="0"><g class="list-full" data-list="barn_full"><g class="sheaf" data-sheaf-id="3" data-list="barn_full"><rect></rect></g></g></g></svg></section>
    <section data-panel="counters"><table><tr data-stat="alloc_fastpath"><td>1</td></tr></table></section>
  </main>`;
  return document.body;
}

describe('marks and clicks on the drawn views', () => {
  test('clicks map to element ids per target kind', () => {
    const b = drawn();
    const slabRect = b.querySelector('[data-slab-id="4"] rect')!;
    expect(clickedId(slabRect, 'slab')).toBe(4);
    expect(clickedId(slabRect, 'list')).toBe('partial:0');
    expect(clickedId(slabRect, 'object')).toBeNull();
    expect(clickedId(b.querySelector('[data-slab-id="5"] rect')!, 'list')).toBeNull();
    const obj = b.querySelector('[data-object-id="33"]')!;
    expect(clickedId(obj, 'object')).toBe(33);
    expect(clickedId(obj, 'sheaf')).toBe(7);
    expect(clickedId(obj, 'list')).toBe('main:1');
    expect(clickedId(obj, 'cpu')).toBe(1);
    const barnSheaf = b.querySelector('[data-sheaf-id="3"] rect')!;
    expect(clickedId(barnSheaf, 'list')).toBe('barn_full:0');
    expect(clickedId(barnSheaf, 'node')).toBe(0);
  });

  test('the marker sets data-lesson-hl on highlighted elements and keeps it across redraws', async () => {
    const b = drawn();
    const m = new Marker(b);
    m.start();
    m.set({ highlight: [{ slab: 4 }, { list: 'main:1' }, { stat: 'alloc_fastpath' }, { list: 'barn_full:0' }], focus: ['counters', 'stats'] });
    expect(b.querySelector('[data-slab-id="4"]')!.getAttribute('data-lesson-hl')).toBe('true');
    expect(b.querySelector('[data-where="main"]')!.getAttribute('data-lesson-hl')).toBe('true');
    expect(b.querySelector('[data-stat="alloc_fastpath"]')!.getAttribute('data-lesson-hl')).toBe('true');
    expect(b.querySelector('g.list-full')!.getAttribute('data-lesson-hl')).toBe('true');
    expect(b.querySelector('[data-sheaf-id="3"]')!.hasAttribute('data-lesson-hl')).toBe(false);
    expect(b.querySelector('[data-panel="counters"]')!.getAttribute('data-lesson-focus')).toBe('0');
    // a redraw replaces the slab element
    const row = b.querySelector('g.slab-list[data-node="0"]')!;
    row.innerHTML = '<g class="slab" data-slab-id="4" data-list="partial"><rect></rect></g>';
    await new Promise((r) => setTimeout(r, 0));
    expect(b.querySelector('[data-slab-id="4"]')!.getAttribute('data-lesson-hl')).toBe('true');
    m.set({ highlight: [], focus: [] });
    expect(b.querySelectorAll('[data-lesson-hl]')).toHaveLength(0);
    expect(b.querySelectorAll('[data-lesson-focus]')).toHaveLength(0);
    m.stop();
  });

  test('every highlight kind has selectors', () => {
    for (const h of [{ slab: 1 }, { obj: 1 }, { sheaf: 1 }, { cpu: 1 }, { node: 1 }, { list: 'partial:0' }, { stat: 'x' }, { sysfs: 'order' }, { slabinfo: 'RAW' }, { table: 't' }]) {
      expect(highlightSelectors(h).length, JSON.stringify(h)).toBeGreaterThan(0);
    }
  });
});
