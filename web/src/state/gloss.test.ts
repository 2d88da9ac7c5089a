// The step gloss: every event kind and location the core's manifest names
// has its template, and the sentences say what the fields say.
import { beforeAll, describe, expect, test } from 'vitest';
import { manifest, type Manifest, type SlubvizModule } from '../../../core/wasm/slubviz-api';
import type { Snapshot, SvzEvent } from '../engine/types';
import { loadModule } from '../engine/testing';
import { CHECK_GLOSS, gloss, KIND_GLOSS, PLACE } from './gloss';

let man: Manifest;
beforeAll(async () => {
  const mod: SlubvizModule = await loadModule();
  man = manifest(mod);
});

const ev = (p: Partial<SvzEvent>): SvzEvent => ({ seq: 0, op: 0, cpu: 0, fn: 'x', kind: 'check', count: 1, value: 0, text: '', ...p });

describe('gloss', () => {
  test('one template per manifest event kind and one phrase per location', () => {
    expect(man.event_kinds.length).toBeGreaterThan(10);
    expect(man.event_kinds.filter((k) => !KIND_GLOSS[k])).toEqual([]);
    expect(Object.keys(PLACE).sort()).toEqual([...man.locations].sort());
  });

  test('the sentences follow the fields', () => {
    const snap = { caches: [{ id: 2, name: 'bio-256' }] } as unknown as Snapshot;
    // engine.h CHECKS: NO_BARN is "no barn for this CPU's node"
    expect(gloss(ev({ cpu: 5, kind: 'check', check: 'NO_BARN' }))).toBe(
      "CPU 5: this node has no barn (no memory of its own): no sheaf exchange.",
    );
    expect(gloss(ev({ cpu: 1, kind: 'take_object', count: 60, from: 'freelist', to: 'sheaf' }))).toBe(
      "CPU 1 takes 60 objects out of a slab's free list into a sheaf.",
    );
    expect(gloss(ev({ cpu: 0, kind: 'move_sheaf', value: 1, from: 'main', to: 'barn_full' }))).toBe(
      "CPU 0 moves a sheaf of 1 object from the main sheaf to the barn's full sheaves.",
    );
    // page_alloc: count is the order, 2^2 = 4 pages
    expect(gloss(ev({ cpu: 3, kind: 'page_alloc', count: 2 }))).toBe('CPU 3 asks the page allocator for 4 pages.');
    expect(gloss(ev({ cpu: 2, kind: 'new_slab', cache: 2, value: 16 }), snap)).toBe('CPU 2 builds a new slab of 16 objects for bio-256 on fresh pages.');
    expect(gloss(null)).toBe('');
  });

  test('the gloss speaks the UI language; kernel names stay as they are', () => {
    expect(gloss(ev({ cpu: 1, kind: 'take_object', count: 60, from: 'freelist', to: 'sheaf' }), null, 'ko')).toBe(
      '[CPU 1] 객체 60개를 꺼냅니다: slab의 freelist → sheaf.',
    );
    expect(gloss(ev({ cpu: 0, kind: 'stat', stat: 'alloc_fastpath', value: 3 }), null, 'ko')).toBe('[CPU 0] alloc_fastpath 카운터를 하나 올립니다 (이 CPU에서 3).');
    expect(gloss(ev({ cpu: 4, kind: 'lock', lock: 'list_lock' }), null, 'ko')).toContain('list_lock');
  });

  test('every decision and every lock the manifest names has a phrase', () => {
    expect(Object.keys(CHECK_GLOSS).sort()).toEqual([...man.checks].sort());
    for (const lock of man.locks) expect(gloss(ev({ cpu: 0, kind: 'lock', lock }))).not.toContain('a lock');
  });
});
