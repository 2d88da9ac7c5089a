// @vitest-environment jsdom
// selection.attr and selection.text leave a value that is already there
// (viz/common.ts): the renderers redraw every element each frame, the DOM
// changes only where a value changed.
import * as d3 from 'd3';
import { describe, expect, test } from 'vitest';
import { renderTopology } from './topology';
import { dataDump } from './common';
import ublk from './fixtures/ublk-op3000.json';
import type { Snapshot, SvzEvent } from '../engine/types';

/** The mutations `fn` makes under `el`, as "attr name" / "text". */
function mutations(el: Element, fn: () => void): Promise<string[]> {
  return new Promise((resolve) => {
    const seen: string[] = [];
    const mo = new MutationObserver((rs) => {
      for (const r of rs) seen.push(r.type === 'attributes' ? `attr ${r.attributeName}` : 'text');
    });
    mo.observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
    fn();
    setTimeout(() => {
      seen.push(...mo.takeRecords().map((r) => (r.type === 'attributes' ? `attr ${r.attributeName}` : 'text')));
      mo.disconnect();
      resolve(seen);
    }, 0);
  });
}

describe('attr and text set only what changed', () => {
  test('the same values change nothing; a new value, a null and a text do', async () => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    document.body.appendChild(svg);
    const rects = d3.select(svg).selectAll('rect').data([1, 2]).join('rect');
    rects.attr('width', (d) => d * 10).attr('data-x', 'a');
    d3.select(svg).append('text').text('hello');
    expect(await mutations(svg, () => rects.attr('width', (d) => d * 10).attr('data-x', 'a'))).toEqual([]);
    expect(await mutations(svg, () => d3.select(svg).select('text').text('hello'))).toEqual([]);
    expect(await mutations(svg, () => rects.attr('width', (d) => (d === 1 ? 10 : 30)))).toEqual(['attr width']);
    expect(await mutations(svg, () => rects.attr('data-x', null))).toEqual(['attr data-x', 'attr data-x']);
    expect([...svg.querySelectorAll('rect')].map((n) => [n.getAttribute('width'), n.hasAttribute('data-x')])).toEqual([['10', false], ['30', false]]);
    expect(await mutations(svg, () => d3.select(svg).select('text').text('bye'))).toEqual(['text']);
    expect(svg.querySelector('text')!.textContent).toBe('bye');
    // a lone text node is rewritten in place, not replaced
    const node = svg.querySelector('text')!.firstChild;
    d3.select(svg).select('text').text('hi');
    expect(svg.querySelector('text')!.firstChild).toBe(node);
    expect(node!.nodeValue).toBe('hi');
    d3.select(svg).select('text').text('');
    expect(svg.querySelector('text')!.childNodes).toHaveLength(0);
    d3.select(svg).select('text').text('bye');
    // an element with child elements gets its text in their place, as d3 does
    const t = d3.select(svg).select('text');
    t.append('tspan').text('x');
    t.text('byex');
    expect(svg.querySelector('text')!.childElementCount).toBe(0);
    expect(svg.querySelector('text')!.textContent).toBe('byex');
    // getters unchanged
    expect(rects.attr('width')).toBe('10');
    expect(t.text()).toBe('byex');
  });

  test('redrawing a renderer over the same snapshot mutates nothing; its drawn state is the same', async () => {
    const input = ublk as unknown as { snap: Snapshot; event: SvzEvent | null };
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    document.body.appendChild(svg);
    const opts = { animMs: 0, cache: 0, focusCpu: null, focusNode: null };
    renderTopology(svg, input, opts);
    const drawn = dataDump(svg);
    expect(drawn.length).toBeGreaterThan(input.snap.topology.nodes.length);
    expect(await mutations(svg, () => renderTopology(svg, input, opts))).toEqual([]);
    expect(dataDump(svg)).toEqual(drawn);
  });

  test('listeners: one browser listener per element and type, calling the function bound last with the current datum', () => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    document.body.appendChild(svg);
    const added: string[] = [];
    const rects = d3.select(svg).selectAll<SVGRectElement, number>('rect').data([1, 2]).join('rect');
    const nodes = rects.nodes();
    for (const n of nodes) {
      const add = n.addEventListener.bind(n);
      n.addEventListener = (type: string, ...rest: [EventListenerOrEventListenerObject, boolean | AddEventListenerOptions | undefined]) => {
        added.push(type);
        add(type, ...rest);
      };
    }
    const seen: string[] = [];
    for (const tag of ['a', 'b', 'c']) rects.on('click', (_e, d) => seen.push(`${tag}${String(d)}`));
    expect(added).toEqual(['click', 'click']);
    rects.data([5, 6]);
    nodes[1].dispatchEvent(new Event('click'));
    expect(seen).toEqual(['c6']);
    // null unbinds; binding again works
    rects.on('click', null);
    nodes[1].dispatchEvent(new Event('click'));
    expect(seen).toEqual(['c6']);
    rects.on('click', (_e, d) => seen.push(`d${String(d)}`));
    nodes[0].dispatchEvent(new Event('click'));
    expect(seen).toEqual(['c6', 'd5']);
    // named listeners keep d3's own handling
    rects.on('click.extra', () => seen.push('extra'));
    nodes[0].dispatchEvent(new Event('click'));
    expect(seen).toEqual(['c6', 'd5', 'd5', 'extra']);
  });
});
