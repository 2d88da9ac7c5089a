import { beforeAll, describe, expect, test } from 'vitest';
import { Engine } from './engine';
import type { SlubvizModule } from '../../../core/wasm/slubviz-api';
import { loadModule, scenario } from './testing';
import type { Frame } from './protocol';
import type { SnapSlab } from './types';
import { ownerSites, packFrames, unpackFrames } from './wire';

let mod: SlubvizModule;
beforeAll(async () => {
  mod = await loadModule();
});

/** Live objects of two call sites over several slabs (and one without a site). */
const TWO_SITES = `slubviz-trace 1
page_size 4096
node 0 mem=64M
cpus 0-1 node=0
cache dentry size=192
repeat 90 {
  c0 alloc dentry d{$i} at=d_alloc+0x2c
}
repeat 40 {
  c1 alloc dentry e{$i} at=__d_alloc+0x10
}
c0 alloc dentry plain
repeat 30 {
  c0 free dentry d{$i}
}
`;

/** What crossing to the page makes of a reply. */
const cross = <T>(result: T): T => unpackFrames(structuredClone(packFrames(result))) as T;

describe('frames across the worker boundary (wire.ts)', () => {
  test('a frame arrives as the engine made it, owners and key order included', () => {
    const e = new Engine(mod);
    const { frame } = e.open(TWO_SITES, '', '');
    const mid = e.seekOp(frame.opsTotal);
    const owned = mid.snapshot.slabs.filter((s) => (s.owners ?? []).length > 0);
    // more than one slab and more than one call site, so the tables matter
    expect(owned.length).toBeGreaterThan(1);
    expect(new Set(owned.flatMap((s) => s.owners!.map((o) => o.site)))).toEqual(new Set(['d_alloc+0x2c', '__d_alloc+0x10', '']));
    const wanted = JSON.stringify(mid);
    const got = cross(mid);
    expect(JSON.stringify(got)).toBe(wanted);
    expect(got).toEqual(JSON.parse(wanted));
    // the engine's own snapshot is left as it was
    expect(JSON.stringify(mid)).toBe(wanted);
    e.close();
  });

  test('ownerSites counts the call sites of a slab whether its owners were read or not', () => {
    const e = new Engine(mod);
    const { frame } = e.open(TWO_SITES, '', '');
    const mid = e.seekOp(frame.opsTotal - 10);
    const count = (s: SnapSlab) => {
      const n = new Map<string, number>();
      for (const o of s.owners ?? []) n.set(o.site, (n.get(o.site) ?? 0) + 1);
      return [...n].sort();
    };
    const got = cross(mid).snapshot.slabs;
    expect(got.some((s) => (s.owners ?? []).length)).toBe(true);
    const unread = cross(mid).snapshot.slabs;
    mid.snapshot.slabs.forEach((s, i) => {
      expect([...ownerSites(unread[i])].sort()).toEqual(count(s));
      expect([...ownerSites(got[i])].sort()).toEqual(count(s));
    });
    e.close();
  });

  test('replies with a frame inside (open, hand steps) and without one', () => {
    const e = new Engine(mod);
    const opened = e.open(scenario('kfree-rcu'), '', '');
    const later = e.seekOp(opened.frame.opsTotal);
    const reply = { meta: opened.meta, frame: later, hand: '' };
    expect(JSON.stringify(cross(reply))).toBe(JSON.stringify(reply));
    expect(cross('slabinfo text')).toBe('slabinfo text');
    expect(cross(null)).toBeNull();
    const handles = cross(reply).frame.snapshot.slabs.flatMap((s) => s.owners ?? []);
    expect(handles.length).toBe(later.snapshot.slabs.reduce((n, s) => n + (s.owners?.length ?? 0), 0));
    e.close();
  });

  test('a handle with a newline in it still arrives whole', () => {
    const slab = { id: 0, owners: [{ obj: 3, handle: 'a\nb', site: '' }, { obj: 4, handle: 'c', site: 'x' }] } as unknown as SnapSlab;
    const frame = { snapshot: { slabs: [slab] } } as unknown as Frame;
    expect(cross(frame).snapshot.slabs[0].owners).toEqual(slab.owners);
  });
});
