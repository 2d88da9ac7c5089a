// @vitest-environment jsdom
import { describe, expect, test } from 'vitest';
import type { Snapshot, SvzEvent } from '../engine/types';
import cycle from './fixtures/sheaf-cycle-op700.json';
import { renderPartialLists } from './partial';

const C = cycle as unknown as { snap: Snapshot; event: SvzEvent | null };

describe('slab lists: selecting a slab', () => {
  test('a click or Enter on a slab reaches the last render\'s handler, once', () => {
    const el = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    const first: number[] = [];
    const last: number[] = [];
    renderPartialLists(el, C, { animMs: 0, cache: 0, onSelectSlab: (id) => first.push(id) });
    renderPartialLists(el, C, { animMs: 0, cache: 0, onSelectSlab: (id) => last.push(id) });
    const g = el.querySelector<SVGGElement>('g.slab')!;
    const id = Number(g.getAttribute('data-slab-id'));
    g.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    g.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    g.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    expect(first).toEqual([]);
    expect(last).toEqual([id, id]);
  });
});
